import EventBus
@testable import LayoutCore
@testable import LayoutRooms

/// What the mailbox tests share: events to queue, and what a mailbox holds, popped.
enum MailboxFixtures {
    /// A `settled` event (one a frame may depend on) with sequence number `seq`.
    static func envelope(_ seq: UInt64) -> Envelope<LayoutEvent> {
        Envelope(seq: seq, event: LayoutEvent(kind: .settled, by: nil, tick: Int(seq), detail: .none))
    }

    /// A `joined` or `left` event of client `c<seq>`.
    static func presence(_ seq: UInt64, _ kind: EventKind = .left) -> Envelope<LayoutEvent> {
        Envelope(seq: seq, event: LayoutEvent(kind: kind, by: nil, tick: 0, detail: .membership(client: "c\(seq)", clients: 1)))
    }

    /// Every message popped, one at a time, as text.
    static func drain(_ mailbox: Mailbox) -> [String] {
        var texts: [String] = []
        while let message = mailbox.pop() { texts.append(message.text) }
        return texts
    }
}
