/// The fixed 40-byte head of a protocol v2 frame (a binary message, little-endian):
/// u8 kind = 1, u8 flags (bit 0: membership section), u16 reserved, u32 tick, u32 v,
/// f64 at (ms since 1970), f32 minX, minY, maxX, maxY, u32 n. The load tool reads only this.
public struct V2FrameHead: Equatable, Sendable {
    public static let length = 40
    public static let kindFrame: UInt8 = 1

    public var flags: UInt8
    public var tick: UInt32
    public var v: UInt32
    public var at: Double
    public var n: UInt32

    public init(flags: UInt8, tick: UInt32, v: UInt32, at: Double, n: UInt32) {
        self.flags = flags
        self.tick = tick
        self.v = v
        self.at = at
        self.n = n
    }

    /// Nil unless `bytes` start with a whole head of kind 1.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= Self.length, bytes[0] == Self.kindFrame else { return nil }
        flags = bytes[1]
        tick = UInt32(Self.little(bytes, 4, 4))
        v = UInt32(Self.little(bytes, 8, 4))
        at = Double(bitPattern: Self.little(bytes, 12, 8))
        n = UInt32(Self.little(bytes, 36, 4))
    }

    public var hasMembership: Bool { flags & 1 != 0 }

    /// The unsigned little-endian integer of `count` bytes at `offset`.
    static func little(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (offset..<(offset + count)).reversed() { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}
