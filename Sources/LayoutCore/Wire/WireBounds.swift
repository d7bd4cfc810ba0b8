import EventBus

/// What a server accepts of what it reads from Redis, in one table. Whoever can write to Redis
/// can write anything there (a summary, a lease, a broadcast on a room's channel), so every
/// number a decoder takes is checked against these bounds and every name against its form:
/// what is outside them is refused as malformed (and logged), never summed, stepped or
/// numbered on from. Each bound is far above what a real server reaches.
package enum WireBounds {
    /// Sequence numbers, ticks, frame serials, membership versions, timestamps: 2^53, the
    /// largest integer a browser's number holds exactly (at a million a second, 285 years).
    static let counter = 0...Int(EventBusBounds.maxSeq)
    /// Clients of one room or one server.
    package static let clients = 0...1_000_000
    /// Cells of one room.
    package static let cells = 0...100_000_000
    /// Rooms one server steps (a summary's `rooms`) or relays.
    package static let rooms = 0...100_000
    /// Servers in the cluster's view.
    package static let nodes = 1_000
    /// A summary's bytes.
    static let summaryBytes = 16 << 20
    /// Nanoseconds from a relayed frame to the next one due.
    static let nextDueIn: UInt64 = 60_000_000_000
    /// A relayed client's message (the most `--max-message-bytes` allows).
    static let messageBytes = 16 << 20
    /// A refusal sent back to a relay (an `error` message).
    static let replyBytes = 64 << 10

    /// A client id: 1 to 64 of `A-Z a-z 0-9 @ - _ .` (`c7@b`).
    package static func validClientID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy {
            switch $0 {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "@"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                 UInt8(ascii: "."):
                true
            default:
                false
            }
        }
    }

    /// `value` as a counter (`counter`), or `WireMalformed` naming `what`.
    static func counter(_ value: Int, _ what: String) throws(WireMalformed) -> Int {
        guard counter.contains(value) else { throw WireMalformed("\(what) \(value) is out of bounds") }
        return value
    }

    static func seq(_ value: UInt64, _ what: String) throws(WireMalformed) -> UInt64 {
        guard value <= EventBusBounds.maxSeq else { throw WireMalformed("\(what) \(value) is out of bounds") }
        return value
    }

    static func check(_ value: Int, in range: ClosedRange<Int>, _ what: String) throws(WireMalformed) {
        guard range.contains(value) else { throw WireMalformed("\(what) \(value) is out of bounds") }
    }

    static func node(_ name: String) throws(WireMalformed) -> String {
        guard NodeName.isValid(name) else { throw WireMalformed("not a server's name: \(name.prefix(40).debugDescription)") }
        return name
    }

    static func client(_ id: String) throws(WireMalformed) -> String {
        guard validClientID(id) else { throw WireMalformed("not a client id: \(id.prefix(40).debugDescription)") }
        return id
    }

    /// Cell ids (the state file's bound: exact in a browser's number).
    static let largestCellID = 1 << 53

    /// A pointer's display name, as a client may give it (`Pointer.name`, already trimmed).
    static func pointerName(_ bytes: [UInt8]) throws(WireMalformed) -> String {
        guard let text = String(validating: bytes, as: UTF8.self), case .success(let name) = Pointer.name(text), name == text else {
            throw WireMalformed("not a pointer's name")
        }
        return name
    }

    /// `a + b`, or the largest Int when that overflows (sums of what servers report).
    static func sum<S: Sequence>(_ values: S) -> Int where S.Element == Int {
        values.reduce(0) { total, value in
            let (result, overflow) = total.addingReportingOverflow(value)
            return overflow ? (value < 0 ? Int.min : Int.max) : result
        }
    }
}
