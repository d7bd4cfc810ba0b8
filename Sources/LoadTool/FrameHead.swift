/// What the load tool reads of a message: its type, and for frames `tick` and `at`, all in
/// its first bytes, so the rest (the positions) is never decoded. A v1 frame is JSON text
/// (`{"type":"frame","tick":T,"v":V,"at":A,…`); a v2 frame is a binary message whose 40-byte
/// head holds them at fixed offsets (`V2FrameHead`). Text messages are JSON in both.
public struct FrameHead: Equatable, Sendable {
    public var type: String
    public var tick: Int?
    /// The server's wall clock when it made the frame, in ms since 1970.
    public var at: Double?

    /// Bytes of a message's start that always hold its head (v1 text or v2 binary).
    public static let prefixLength = 96

    public init(type: String, tick: Int?, at: Double?) {
        self.type = type
        self.tick = tick
        self.at = at
    }

    /// The head of a message from its first bytes; `binary`: it came as a binary message.
    public init?(_ prefix: some Collection<UInt8>, binary: Bool = false) {
        let bytes = Array(prefix.prefix(Self.prefixLength))
        if binary {
            guard let head = V2FrameHead(bytes) else { return nil }
            self.init(type: "frame", tick: Int(head.tick), at: head.at)
            return
        }
        guard let type = Self.string(after: Array(#""type":""#.utf8), in: bytes) else { return nil }
        self.init(type: type, tick: Self.integer(after: Array(#""tick":"#.utf8), in: bytes),
                  at: Self.integer(after: Array(#""at":"#.utf8), in: bytes).map(Double.init))
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle) {
            return start + needle.count
        }
        return nil
    }

    private static func string(after key: [UInt8], in bytes: [UInt8]) -> String? {
        guard let start = find(key, in: bytes), let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private static func integer(after key: [UInt8], in bytes: [UInt8]) -> Int? {
        guard let start = find(key, in: bytes) else { return nil }
        var value = 0
        var index = start
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
        }
        // A number cut off by the prefix's end is not a number.
        return index > start && index < bytes.count ? value : nil
    }
}
