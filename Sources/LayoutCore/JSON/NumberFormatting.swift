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

    /// A position as the frame number format writes it: its sign, its whole part and its tenth
    /// (0 when it has none: whole units from 1000 on, or a round number). `appendPosition`
    /// writes it and `positionLength` counts it, from this one rounding.
    @inline(__always)
    private static func decimal(_ value: Double) -> (negative: Bool, whole: UInt64, tenth: UInt8) {
        let clamped = value.isNaN ? 0 : min(max(value, -limit), limit)
        let tenths = Int64((clamped * 10).rounded(.toNearestOrAwayFromZero))
        if tenths.magnitude < UInt64(wholeUnitsFrom * 10) {
            return (tenths < 0, tenths.magnitude / 10, UInt8(tenths.magnitude % 10))
        }
        let whole = Int64(clamped.rounded(.toNearestOrAwayFromZero))
        return (whole < 0, whole.magnitude, 0)
    }

    public static func appendPosition(_ value: Double, to bytes: inout [UInt8]) {
        let (negative, whole, tenth) = decimal(value)
        if negative { bytes.append(UInt8(ascii: "-")) }
        appendDigits(whole, to: &bytes)
        if tenth != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(0x30 + tenth)
        }
    }

    /// How many bytes `appendPosition` writes for `value`, without writing them (a frame's
    /// size when its text is not written, `FrameEncoder.positionsCount`).
    @inline(__always)
    public static func positionLength(_ value: Double) -> Int {
        let (negative, whole, tenth) = decimal(value)
        return (negative ? 1 : 0) + digitCount(whole) + (tenth != 0 ? 2 : 0)
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
