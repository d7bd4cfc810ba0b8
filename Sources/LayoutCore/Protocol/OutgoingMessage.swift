/// One encoded message ready for a WebSocket library's write: the payload with `reserved`
/// writable bytes in front, where the library writes its frame header (libwebsockets'
/// `lws_write` needs `LWS_PRE` of them; the server checks at start-up that `reserved` is
/// enough, so the core need not link libwebsockets to know it).
///
/// `@unchecked Sendable` because the storage is raw memory: the payload is written once in
/// `init` and only read afterwards; lws writes its frame header into the reserved bytes in
/// front, and only ever on the service thread, the one thread that calls `lws_write`.
public final class OutgoingMessage: @unchecked Sendable {
    /// `LWS_PRE` is 16 on 64-bit builds of libwebsockets 4.x; `Server.init` refuses to start
    /// if the linked library wants more.
    public static let reserved = 16

    private let storage: UnsafeMutableRawBufferPointer
    public let count: Int
    /// Sent as a binary WebSocket message (a v2 frame), else as text (JSON).
    public let isBinary: Bool

    /// Copies `payload` behind the reserved header room.
    public convenience init(_ payload: [UInt8], binary: Bool = false) {
        self.init(parts: [payload], binary: binary)
    }

    /// Copies the concatenation of `parts` behind the reserved header room, in one pass.
    public init(parts: [[UInt8]], binary: Bool = false) {
        isBinary = binary
        count = parts.reduce(0) { $0 + $1.count }
        storage = .allocate(byteCount: OutgoingMessage.reserved + max(count, 1), alignment: 16)
        var cursor = storage.baseAddress!.advanced(by: OutgoingMessage.reserved)
        for part in parts {
            part.withUnsafeBytes { source in
                guard let base = source.baseAddress else { return }
                cursor.copyMemory(from: base, byteCount: source.count)
                cursor = cursor.advanced(by: source.count)
            }
        }
    }

    /// `count` bytes behind the reserved header room, written by `fill` (in place: no copy).
    public init(count: Int, binary: Bool = false, fill: (UnsafeMutableRawBufferPointer) -> Void) {
        isBinary = binary
        self.count = count
        storage = .allocate(byteCount: OutgoingMessage.reserved + max(count, 1), alignment: 16)
        fill(UnsafeMutableRawBufferPointer(rebasing: storage[OutgoingMessage.reserved..<(OutgoingMessage.reserved + count)]))
    }

    deinit { storage.deallocate() }

    /// The payload start, with `reserved` writable bytes before it (service thread only).
    package var payload: UnsafeMutablePointer<UInt8> {
        storage.baseAddress!.advanced(by: OutgoingMessage.reserved).assumingMemoryBound(to: UInt8.self)
    }

    /// A copy of the payload (tests, the fuzzer, a frame replicated to the cluster).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: payload, count: count)) }

    public var text: String {
        String(decoding: UnsafeBufferPointer(start: payload, count: count), as: UTF8.self)
    }
}
