/// The cluster's binary messages (`RoomBroadcast`, `RelayRequest`, `NodeMessage`): numbers
/// little-endian, byte strings and text with a u32 length in front.
package struct WireWriter {
    package private(set) var bytes: [UInt8]

    package init(capacity: Int = 64) { bytes = []; bytes.reserveCapacity(capacity) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func int(_ value: Int) { u64(UInt64(bitPattern: Int64(value))) }
    mutating func bool(_ value: Bool) { u8(value ? 1 : 0) }

    mutating func data(_ value: [UInt8]) {
        withUnsafeBytes(of: UInt32(value.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: value)
    }

    mutating func text(_ value: String) { data(Array(value.utf8)) }

    /// A byte string that may be absent (a flag byte, then the string).
    mutating func optionalData(_ value: [UInt8]?) {
        bool(value != nil)
        if let value { data(value) }
    }
}

/// Reads what `WireWriter` wrote; anything short or out of place is `WireMalformed`.
package struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func u8() throws(WireMalformed) -> UInt8 {
        guard offset < bytes.count else { throw WireMalformed("ends inside a byte") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u64() throws(WireMalformed) -> UInt64 {
        guard bytes.count - offset >= 8 else { throw WireMalformed("ends inside a number") }
        var value: UInt64 = 0
        for index in (0..<8).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        offset += 8
        return value
    }

    mutating func int() throws(WireMalformed) -> Int { Int(Int64(bitPattern: try u64())) }

    mutating func bool() throws(WireMalformed) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw WireMalformed("a flag is neither 0 nor 1")
        }
    }

    mutating func data() throws(WireMalformed) -> [UInt8] {
        guard bytes.count - offset >= 4 else { throw WireMalformed("ends inside a length") }
        var count = 0
        for index in (0..<4).reversed() { count = count << 8 | Int(bytes[offset + index]) }
        offset += 4
        guard bytes.count - offset >= count else { throw WireMalformed("a string runs past the end") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func text() throws(WireMalformed) -> String {
        let raw = try data()
        guard let text = String(validating: raw, as: UTF8.self) else { throw WireMalformed("text is not UTF-8") }
        return text
    }

    mutating func optionalData() throws(WireMalformed) -> [UInt8]? {
        try bool() ? try data() : nil
    }

    package func finish() throws(WireMalformed) {
        guard isAtEnd else { throw WireMalformed("\(bytes.count - offset) bytes past the end") }
    }
}

package struct WireMalformed: Error, Equatable, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
