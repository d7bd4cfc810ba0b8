import EventBus
import LayoutCore
import Synchronization

/// Encodes each event of one room's bus once for every connection. The bus delivers one envelope
/// to all subscribers in turn (publishing is serialised), so remembering the last encoding
/// is enough: the first mailbox encodes, the others reuse it.
package final class EventMessages: Sendable {
    private let last = Mutex<(seq: UInt64, message: OutgoingMessage)?>(nil)

    func message(for envelope: Envelope<LayoutEvent>) -> OutgoingMessage {
        last.withLock { last in
            if let last, last.seq == envelope.seq { return last.message }
            let message = OutgoingMessage(ServerMessages.event(envelope))
            last = (envelope.seq, message)
            return message
        }
    }
}
