/// Several text messages as one: `{"type":"batch","messages":[m1,m2,…]}`, each element the
/// message exactly as it would have come alone, in order (docs/protocol.md, "batch").
///
/// A connection that asked for batches (its handshake offered one more subprotocol name,
/// `forcelayout.batch`, as it may offer a room's key) gets what waits for it together in one
/// write: a burst of `joined` and `left` as a cluster's server drains (hundreds
/// of clients leaving one server and joining another, each announced to every reader) costs
/// each reader one write instead of hundreds, and its frames are not held back behind them.
/// Built by copying the messages' bytes, which are encoded once for every connection.
package enum MessageBatch {
    /// The name a handshake's subprotocol offer carries to ask for batches: never bound (the
    /// server binds `forcelayout.v1` or `v2`), so a server that knows no batches ignores it.
    package static let offerName = "forcelayout.batch"

    /// Whether `Sec-WebSocket-Protocol` (an offer `SubprotocolOffer` accepted) asks for batches.
    package static func asked(inOffer header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { $0.trimmingWhitespace() == offerName }
    }

    /// A batch holds messages of at most this many bytes in all; a larger message goes alone.
    package static let maxBytes = 64 * 1024

    private static let opening = Array(#"{"type":"batch","messages":["#.utf8)
    private static let closing = Array("]}".utf8)
    private static let comma = Array(",".utf8)

    /// Whether `message` may go in a batch: text (JSON), not a v2 frame.
    package static func admits(_ message: OutgoingMessage) -> Bool { !message.isBinary }

    /// `messages` as one message: a single one as it is, several (text) as a batch.
    package static func joined(_ messages: [OutgoingMessage]) -> OutgoingMessage {
        precondition(!messages.isEmpty, "a batch of nothing")
        guard messages.count > 1 else { return messages[0] }
        precondition(messages.allSatisfy(admits), "a batch holds text messages")
        let count = opening.count + closing.count + messages.reduce(messages.count - 1) { $0 + $1.count }
        return OutgoingMessage(count: count) { buffer in
            var at = 0
            func put(_ bytes: UnsafeRawBufferPointer) {
                UnsafeMutableRawBufferPointer(rebasing: buffer[at..<(at + bytes.count)]).copyMemory(from: bytes)
                at += bytes.count
            }
            opening.withUnsafeBytes(put)
            for (index, message) in messages.enumerated() {
                if index > 0 { comma.withUnsafeBytes(put) }
                put(UnsafeRawBufferPointer(start: message.payload, count: message.count))
            }
            closing.withUnsafeBytes(put)
        }
    }
}
