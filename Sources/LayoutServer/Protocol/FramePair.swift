import ForceLayout

/// A frame encoded once, in both forms connections need, sharing one pass over positions:
/// the head (`{"type":"frame","tick":T,"v":V`), the ids fragment and the body
/// (`,"xy":[…]}`) are kept apart, so each form is assembled by one copy of its parts.
public struct FramePair {
    public let head: [UInt8]
    public let idsFragment: [UInt8]
    public let body: [UInt8]

    /// `idsFragment` is `,"ids":[…],"owners":[…]` for `version` (see `idsFragment(for:owners:)`), which callers
    /// cache per version: membership changes far less often than positions.
    /// `at` is the wall-clock time of the step in ms since 1970 (nil: left out), so clients
    /// on other machines' clocks or this one can measure how late frames arrive.
    public init(tick: Int, version: Int, at: Int? = nil, idsFragment: [UInt8], xs: [Double], ys: [Double]) {
        var head = JSONWriter(reservingCapacity: 64)
        head.raw("{\"type\":\"frame\",\"tick\":")
        head.integer(tick)
        head.member("v", version)
        if let at { head.member("at", at) }
        var body = JSONWriter(reservingCapacity: 16 + xs.count * 12)
        body.raw(",\"xy\":[")
        let count = min(xs.count, ys.count)
        for index in 0..<count {
            if index > 0 { body.raw(UInt8(ascii: ",")) }
            body.position(xs[index])
            body.raw(UInt8(ascii: ","))
            body.position(ys[index])
        }
        body.raw("]}")
        self.head = head.bytes
        self.idsFragment = idsFragment
        self.body = body.bytes
    }

    public var withIDs: [UInt8] { head + idsFragment + body }
    public var withoutIDs: [UInt8] { head + body }
    public var withoutIDsCount: Int { head.count + body.count }

    /// `,"ids":[…],"owners":[["c1",1,40],…]`: the membership and who added it, as runs
    /// `[client, firstId, lastId]` (ascending; ids outside every run have no known owner).
    public static func idsFragment(for ids: [CellID], owners: [Ownership.Run] = []) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 32 + ids.count * 7 + owners.count * 20)
        writer.raw(",\"ids\":")
        writer.integers(ids)
        writer.raw(",\"owners\":")
        writer.array(owners) { writer, run in
            writer.raw("[")
            writer.string(run.client)
            writer.raw(",")
            writer.integer(run.first)
            writer.raw(",")
            writer.integer(run.last)
            writer.raw("]")
        }
        return writer.bytes
    }
}
