import Synchronization

/// Connections that just joined a room and are to get its `data` message. The room's next
/// turn answers them on the stepping thread, between two commands: every event published
/// before the message is already in the mailbox, every later one comes after it, so the
/// message and the events a client gets never disagree. Whoever pushes also wakes the room.
final class DataRequests: Sendable {
    private let mailboxes = Mutex<[Mailbox]>([])

    func push(_ mailbox: Mailbox) {
        mailboxes.withLock { $0.append(mailbox) }
    }

    func drain() -> [Mailbox] {
        mailboxes.withLock { mailboxes in
            defer { mailboxes.removeAll() }
            return mailboxes
        }
    }
}
