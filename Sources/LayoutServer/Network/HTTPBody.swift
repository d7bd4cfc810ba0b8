import LayoutCore

/// A response's body, shared by every connection writing it: an export's document can be tens
/// of megabytes, so it is never copied per connection, and goes out a chunk per writable
/// (`BodyWrite`).
final class HTTPBody: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }
    var identity: ObjectIdentifier { ObjectIdentifier(self) }
}

/// Where one connection is in writing a body: the next chunk, at most `chunkSize` bytes, one
/// `lws_write` per writable. libwebsockets keeps what the kernel does not take and holds the
/// next writable back until it is sent, so a reader that stops holds one chunk there, and its
/// connection, making no progress, meets its deadline.
struct BodyWrite {
    static let chunkSize = 64 * 1024

    let body: HTTPBody
    private(set) var sent = 0

    init(_ body: HTTPBody) { self.body = body }

    /// The bytes of the next chunk (the last one may be empty: a body of no bytes).
    var nextChunk: Range<Int> { sent..<min(body.count, sent + Self.chunkSize) }

    /// Whether the next chunk is the last.
    var nextIsLast: Bool { nextChunk.upperBound == body.count }

    mutating func wrote(_ chunk: Range<Int>) { sent = chunk.upperBound }

    var isDone: Bool { sent == body.count }
}

/// Room for one chunk with `LWS_PRE` bytes in front, which lws may write into: a shared
/// document's bytes are copied here, never handed to `lws_write` in place (service thread only).
final class ChunkBuffer {
    private let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: OutgoingMessage.reserved + BodyWrite.chunkSize,
                                                                 alignment: 16)

    deinit { storage.deallocate() }

    /// `chunk` of `body` copied behind the reserved bytes; the payload's start.
    func load(_ chunk: Range<Int>, of body: HTTPBody) -> UnsafeMutablePointer<UInt8> {
        let payload = storage.baseAddress!.advanced(by: OutgoingMessage.reserved)
        body.bytes.withUnsafeBytes { source in
            guard !chunk.isEmpty else { return }
            payload.copyMemory(from: source.baseAddress!.advanced(by: chunk.lowerBound), byteCount: chunk.count)
        }
        return payload.assumingMemoryBound(to: UInt8.self)
    }
}
