/// The frame number format: one decimal, no exponent, no trailing zero, no "-0".
public enum NumberFormatting {
    /// Positions beyond this are clamped: far past anything a layout reaches, and small
    /// enough that tenths still fit exactly in an Int64.
    public static let limit = 1e14

    public static func appendOneDecimal(_ value: Double, to bytes: inout [UInt8]) {
        let clamped = value.isNaN ? 0 : min(max(value, -limit), limit)
        let tenths = Int64((clamped * 10).rounded(.toNearestOrAwayFromZero))
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
