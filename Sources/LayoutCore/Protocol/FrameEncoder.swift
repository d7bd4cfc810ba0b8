import ForceLayout

/// Every `frame` the server sends, written from the layout in one pass over the positions, in
/// both forms a connection may need:
///
///     {"type":"frame","tick":T,"v":V,"at":MS  ,"ids":[…],"owners":[…]  ,"xy":[…]}
///     └──────────── head ───────────────────┘ └──── membership ─────┘ └ positions ┘
///
/// `withIDs` (a connection's first frame, or the membership changed since its last one) has
/// all three parts; `withoutIDs` leaves the membership out. The membership part is written
/// again only when the membership version changes: it changes far less often than positions.
public struct FrameEncoder {
    /// One frame in both forms, each ready for `lws_write`.
    public struct Frame: Sendable {
        public let version: Int
        public let withIDs: OutgoingMessage
        public let withoutIDs: OutgoingMessage
    }

    /// A frame's parts before its positions are written: what writing them takes (the
    /// positions, kept), so a room that has no v1 client yet writes them only when one asks
    /// (`TextFrame`).
    public struct Source: Sendable {
        public let version: Int
        let head: [UInt8]
        let membership: [UInt8]
        let xs: [Double]
        let ys: [Double]

        /// The frame, written now.
        public var frame: Frame {
            let positions = FrameEncoder.positions(xs: xs, ys: ys)
            return Frame(version: version,
                         withIDs: OutgoingMessage(parts: [head, membership, positions]),
                         withoutIDs: OutgoingMessage(parts: [head, positions]))
        }

        /// Bytes of the frame without ids, counted without writing it.
        public var bareCount: Int { head.count + FrameEncoder.positionsCount(xs: xs, ys: ys) }
    }

    private var membership: (version: Int, part: [UInt8]) = (-1, [])

    /// The membership part of the last frame encoded (`,"ids":[…],"owners":[…]`).
    package var membershipPart: [UInt8] { membership.part }
    /// Bytes of the last frame's head (where its membership part goes).
    package private(set) var headCount = 0

    public init() {}

    /// The frame of `simulation` now; `owners` says who added which cells (asked for only when
    /// the membership changed), `at` is the wall-clock time in ms since 1970 (nil: left out).
    public mutating func encode(_ simulation: Simulation, owners: @autoclosure () -> [Ownership.Run] = [],
                                at: Int? = nil) -> Frame {
        source(simulation, owners: owners(), at: at).frame
    }

    /// What `encode` writes, but for the positions: the head and membership parts, and the
    /// positions as they are now.
    public mutating func source(_ simulation: Simulation, owners: @autoclosure () -> [Ownership.Run] = [],
                                at: Int? = nil) -> Source {
        if membership.version != simulation.version {
            membership = (simulation.version, Self.membership(ids: simulation.ids, owners: owners()))
        }
        let head = Self.head(tick: simulation.tick, version: simulation.version, at: at)
        headCount = head.count
        return Source(version: simulation.version, head: head, membership: membership.part,
                      xs: simulation.xs, ys: simulation.ys)
    }

    /// `{"type":"frame","tick":T,"v":V[,"at":MS]`
    static func head(tick: Int, version: Int, at: Int?) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64)
        writer.raw("{\"type\":\"frame\",\"tick\":")
        writer.integer(tick)
        writer.member("v", version)
        if let at { writer.member("at", at) }
        return writer.bytes
    }

    /// `,"ids":[…],"owners":[["c1",1,40],…]`: the membership and who added it, as runs
    /// `[client, firstId, lastId]` (ascending; ids outside every run have no known owner).
    static func membership(ids: [CellID], owners: [Ownership.Run]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 32 + ids.count * 7 + owners.count * 20)
        writer.raw(",\"ids\":")
        writer.integers(ids)
        writer.raw(",\"owners\":")
        writeOwners(owners, into: &writer)
        return writer.bytes
    }

    /// `[["c1",1,40],…]`: who added which cells (v1's `owners`, and v2's membership section).
    static func writeOwners(_ owners: [Ownership.Run], into writer: inout JSONWriter) {
        writer.array(owners) { writer, run in
            writer.raw("[")
            writer.string(run.client)
            writer.raw(",")
            writer.integer(run.first)
            writer.raw(",")
            writer.integer(run.last)
            writer.raw("]")
        }
    }

    /// Bytes `positions(xs:ys:)` writes: `,"xy":[` and `]}`, the numbers and the commas between them.
    static func positionsCount(xs: [Double], ys: [Double]) -> Int {
        let count = min(xs.count, ys.count)
        var bytes = 9 + max(0, 2 * count - 1)
        for index in 0..<count {
            bytes += NumberFormatting.positionLength(xs[index]) + NumberFormatting.positionLength(ys[index])
        }
        return bytes
    }

    /// `,"xy":[x0,y0,x1,y1,…]}` in the frame number format (`NumberFormatting`).
    static func positions(xs: [Double], ys: [Double]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 16 + xs.count * 12)
        writer.raw(",\"xy\":[")
        for index in 0..<min(xs.count, ys.count) {
            if index > 0 { writer.raw(UInt8(ascii: ",")) }
            writer.position(xs[index])
            writer.raw(UInt8(ascii: ","))
            writer.position(ys[index])
        }
        writer.raw("]}")
        return writer.bytes
    }
}
