import ForceLayout

/// A frame encoded once, in both forms connections need, sharing one pass over positions.
public struct FramePair {
    public let withIDs: [UInt8]
    public let withoutIDs: [UInt8]

    /// `idsFragment` is `,"ids":[…]` for `version` (see `idsFragment(for:)`), which callers
    /// cache per version: membership changes far less often than positions.
    public init(tick: Int, version: Int, idsFragment: [UInt8], xs: [Double], ys: [Double], prefix: Int = 0) {
        var head = JSONWriter(reservingCapacity: prefix + 48)
        if prefix > 0 { head.raw([UInt8](repeating: 0, count: prefix)) }
        head.raw("{\"type\":\"frame\",\"tick\":")
        head.integer(tick)
        head.raw(",\"v\":")
        head.integer(version)
        var body = JSONWriter(reservingCapacity: 16 + xs.count * 12)
        body.raw(",\"xy\":[")
        let count = min(xs.count, ys.count)
        for index in 0..<count {
            if index > 0 { body.raw(UInt8(ascii: ",")) }
            body.oneDecimal(xs[index])
            body.raw(UInt8(ascii: ","))
            body.oneDecimal(ys[index])
        }
        body.raw("]}")
        withoutIDs = head.bytes + body.bytes
        var full = head.bytes
        full.reserveCapacity(head.bytes.count + idsFragment.count + body.bytes.count)
        full.append(contentsOf: idsFragment)
        full.append(contentsOf: body.bytes)
        withIDs = full
    }

    public static func idsFragment(for ids: [CellID]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 16 + ids.count * 7)
        writer.raw(",\"ids\":")
        writer.integers(ids)
        return writer.bytes
    }
}
