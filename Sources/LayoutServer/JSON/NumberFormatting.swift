/// The frame number format: tenths below 1000, whole units from 1000 on; never an exponent,
/// a trailing zero or "-0".
///
/// The protocol's first version wrote one decimal everywhere, but a 100k-cell layout of size-20 cells is
/// at least ~6000 units wide, where tenths cost two characters per coordinate and show
/// nothing: fitted to any screen, one unit there is under a device pixel. Keeping about four
/// significant digits (relative error at most 0.05%) brings such frames from ~14 to ~11
/// bytes per cell while layouts under 1000 units keep their tenths (docs/protocol.md).
public enum NumberFormatting {
    /// Positions beyond this are clamped: far past anything a layout reaches, and small
    /// enough that tenths still fit exactly in an Int64.
    public static let limit = 1e14

    /// From this magnitude on, positions are written in whole units.
    public static let wholeUnitsFrom = 1000.0

    public static func appendPosition(_ value: Double, to bytes: inout [UInt8]) {
        let clamped = value.isNaN ? 0 : min(max(value, -limit), limit)
        let tenths = Int64((clamped * 10).rounded(.toNearestOrAwayFromZero))
        if tenths.magnitude < UInt64(wholeUnitsFrom * 10) {
            appendTenths(tenths, to: &bytes)
        } else {
            let whole = Int64(clamped.rounded(.toNearestOrAwayFromZero))
            if whole < 0 { bytes.append(UInt8(ascii: "-")) }
            appendDigits(whole.magnitude, to: &bytes)
        }
    }

    /// How many bytes `appendPosition` writes for `value`, without writing them (a frame's
    /// size when its text is not written, `FrameEncoder.positionsCount`).
    @inline(__always)
    public static func positionLength(_ value: Double) -> Int {
        let clamped = value.isNaN ? 0 : min(max(value, -limit), limit)
        let tenths = Int64((clamped * 10).rounded(.toNearestOrAwayFromZero))
        if tenths.magnitude < UInt64(wholeUnitsFrom * 10) {
            guard tenths != 0 else { return 1 }
            let fraction = tenths.magnitude % 10 != 0 ? 2 : 0
            return (tenths < 0 ? 1 : 0) + digitCount(tenths.magnitude / 10) + fraction
        }
        let whole = Int64(clamped.rounded(.toNearestOrAwayFromZero))
        return (whole < 0 ? 1 : 0) + digitCount(whole.magnitude)
    }

    /// Decimal digits of `value` (1 for 0), as `appendDigits` writes them; positions in tenths
    /// have at most four before the point, so those are compares.
    @inline(__always)
    private static func digitCount(_ value: UInt64) -> Int {
        if value < 10 { return 1 }
        if value < 100 { return 2 }
        if value < 1000 { return 3 }
        if value < 10000 { return 4 }
        var count = 4, rest = value / 10000
        while rest > 0 {
            rest /= 10
            count += 1
        }
        return count
    }

    private static func appendTenths(_ tenths: Int64, to bytes: inout [UInt8]) {
        if tenths == 0 { bytes.append(UInt8(ascii: "0")); return }
        var magnitude = tenths.magnitude
        if tenths < 0 { bytes.append(UInt8(ascii: "-")) }
        let fraction = UInt8(magnitude % 10)
        magnitude /= 10
        appendDigits(magnitude, to: &bytes)
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(0x30 + fraction)
        }
    }

    private static func appendDigits(_ value: UInt64, to bytes: inout [UInt8]) {
        if value < 10 { bytes.append(0x30 + UInt8(value)); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = 0x30 + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for position in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[position]) }
        }
    }
}
