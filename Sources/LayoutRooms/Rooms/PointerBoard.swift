import LayoutCore
import Synchronization

/// A room's pointers on this server (`Pointers`) and the connections here that hear them.
/// On the server that steps the room it is where pointing happens; on a relay, a copy filled
/// from the owner's broadcasts. One lock for both, so a joiner gets every pointer once: in its
/// `hello` (`join`) or as a `pointer` message after it. Used from any thread (the room's turn,
/// the service thread, a relay's subscriber thread).
package final class PointerBoard: Sendable {
    private struct State {
        var pointers = Pointers()
        var mailboxes: [ObjectIdentifier: Mailbox] = [:]
    }
    private let state = Mutex(State())

    package init() {}

    /// A greeted connection hears every change from now on; returns the pointers now, for its
    /// `hello`.
    package func join(_ mailbox: Mailbox) -> [Pointer] {
        state.withLock { state in
            state.mailboxes[ObjectIdentifier(mailbox)] = mailbox
            return state.pointers.current
        }
    }

    /// The connection is gone.
    package func leave(_ mailbox: Mailbox) {
        _ = state.withLock { $0.mailboxes.removeValue(forKey: ObjectIdentifier(mailbox)) }
    }

    /// Applies `transition` and hands each `pointer` message it returns to every connection
    /// here, in order; returns them and the pointers after.
    package func change(_ transition: (inout Pointers) -> [Pointer]) -> (sent: [Pointer], all: [Pointer]) {
        state.withLock { state in
            let sent = transition(&state.pointers)
            guard !sent.isEmpty else { return ([], []) }
            for pointer in sent {
                let message = OutgoingMessage(ServerMessages.pointer(pointer))
                for mailbox in state.mailboxes.values { mailbox.push(message) }
            }
            return (sent, state.pointers.current)
        }
    }

    /// `message` for every connection here, always taken, as the opening's data is (the
    /// room's `data` after a failover).
    package func tellEveryone(_ message: OutgoingMessage) {
        state.withLock { state in
            for mailbox in state.mailboxes.values { mailbox.pushOpening(message) }
        }
    }

    package var current: [Pointer] { state.withLock { $0.pointers.current } }

    package var isEmpty: Bool { state.withLock { $0.pointers.isEmpty } }
}
