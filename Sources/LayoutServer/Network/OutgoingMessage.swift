import CLibWebSockets

/// One encoded message ready for `lws_write`: the payload with `LWS_PRE` writable bytes in front.
///
/// `@unchecked Sendable` because the storage is raw memory: the payload is written once in
/// `init` and only read afterwards; lws writes its frame header into the reserved bytes in
/// front, and only ever on the service thread, the one thread that calls `lws_write`.
public final class OutgoingMessage: @unchecked Sendable {
    public static let reserved = Int(forcelayout_lws_pre)

    private let storage: UnsafeMutableRawBufferPointer
    public let count: Int

    /// Copies `payload` behind the reserved header room.
    public init(_ payload: [UInt8]) {
        count = payload.count
        storage = .allocate(byteCount: OutgoingMessage.reserved + max(payload.count, 1), alignment: 16)
        payload.withUnsafeBytes { source in
            storage.baseAddress!.advanced(by: OutgoingMessage.reserved).copyMemory(from: source.baseAddress!, byteCount: source.count)
        }
    }

    /// Takes an encoding that already begins with `reserved` spare bytes.
    public init(prefixed bytes: [UInt8]) {
        precondition(bytes.count >= OutgoingMessage.reserved)
        count = bytes.count - OutgoingMessage.reserved
        storage = .allocate(byteCount: max(bytes.count, OutgoingMessage.reserved + 1), alignment: 16)
        bytes.withUnsafeBytes { source in
            storage.baseAddress!.copyMemory(from: source.baseAddress!, byteCount: source.count)
        }
    }

    deinit { storage.deallocate() }

    /// The payload start, with `reserved` writable bytes before it (service thread only).
    var payload: UnsafeMutablePointer<UInt8> {
        storage.baseAddress!.advanced(by: OutgoingMessage.reserved).assumingMemoryBound(to: UInt8.self)
    }

    public var text: String {
        String(decoding: UnsafeBufferPointer(start: payload, count: count), as: UTF8.self)
    }
}
