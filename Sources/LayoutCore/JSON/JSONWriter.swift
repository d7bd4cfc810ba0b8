/// Appends JSON text to a byte buffer. Server messages are built with this rather than
/// Foundation so numbers are written the way the protocol promises and nothing is re-encoded.
public struct JSONWriter {
    public private(set) var bytes: [UInt8]

    public init(reservingCapacity capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func raw(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    public mutating func raw(_ byte: UInt8) { bytes.append(byte) }

    /// Its digits, written straight into the buffer: a `String` made for each (what this did
    /// before) was a seventh of the time of a `moment` answer's 10k ids and columns.
    public mutating func integer<T: BinaryInteger>(_ value: T) {
        guard let small = Int64(exactly: value) else { return bytes.append(contentsOf: String(value).utf8) }
        if small < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = small.magnitude
        guard magnitude >= 10 else { return bytes.append(UInt8(ascii: "0") + UInt8(magnitude)) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 20 digits at most, last first
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = 20
            while magnitude > 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: buffer[start..<20])
        }
    }

    /// A finite number, shortest round-trip form; integral values without a fraction.
    /// Non-finite values (never expected) are written as 0 so the output stays valid JSON.
    public mutating func number(_ value: Double) {
        guard value.isFinite else { raw("0"); return }
        if value == value.rounded(), abs(value) < 1e15 {
            integer(Int64(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    /// A frame coordinate: tenths below 1000, whole units above, never an exponent.
    public mutating func position(_ value: Double) {
        NumberFormatting.appendPosition(value, to: &bytes)
    }

    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for unit in value.utf8 {
            switch unit {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(hexDigit(unit >> 4))
                bytes.append(hexDigit(unit & 0xF))
            default:
                bytes.append(unit)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `,"key":value`: one more member of an object already opened (the encoders write
    /// their first member by hand).
    public mutating func member<T: BinaryInteger>(_ name: StaticString, _ value: T) {
        comma(name)
        integer(value)
    }

    public mutating func member(_ name: StaticString, _ value: Double) {
        comma(name)
        number(value)
    }

    public mutating func member(_ name: StaticString, _ value: Bool) {
        comma(name)
        bool(value)
    }

    public mutating func member(_ name: StaticString, _ value: String) {
        comma(name)
        string(value)
    }

    private mutating func comma(_ name: StaticString) {
        bytes.append(UInt8(ascii: ","))
        key(name)
    }

    /// `"key":` — keys are the protocol's own ASCII names, so no escaping is needed.
    public mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    public mutating func integers(_ values: [Int]) {
        array(values) { $0.integer($1) }
    }

    public mutating func strings(_ values: [String]) {
        array(values) { $0.string($1) }
    }

    /// `[e0,e1,…]`, each element written by `element`.
    public mutating func array<T>(_ values: [T], _ element: (inout JSONWriter, T) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (offset, value) in values.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10
    }
}
