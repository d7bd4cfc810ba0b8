import EventBus
import Synchronization

/// What waits to be written to one connection. Filled from any thread (events from the
/// simulation thread, replies from the service thread), emptied on the service thread.
final class Mailbox: Sendable {
    private struct State {
        var messages: [(message: OutgoingMessage, isEvent: Bool)] = []
        var head = 0
        var pendingEvents = 0
        var lastEventSeq: UInt64 = 0
        var stats: OutgoingMessage?
        var overflowed = false
    }

    private let state = Mutex(State())
    private let maxEventBacklog: Int
    private let encoder: EventMessages
    private let alarm: OverflowAlarm

    /// `encoder` is shared by every mailbox, so an event is encoded once for all of them;
    /// `alarm` is raised when this mailbox overflows.
    init(maxEventBacklog: Int, encoder: EventMessages = EventMessages(), alarm: OverflowAlarm = OverflowAlarm()) {
        self.maxEventBacklog = maxEventBacklog
        self.encoder = encoder
        self.alarm = alarm
    }

    /// Queues an event unless it was already queued (a replay and a live delivery may
    /// overlap); past the backlog bound the mailbox is marked overflowed instead.
    func pushEvent(_ envelope: Envelope<LayoutEvent>) {
        state.withLock { state in
            guard envelope.seq > state.lastEventSeq, !state.overflowed else { return }
            state.lastEventSeq = envelope.seq
            guard state.pendingEvents < maxEventBacklog else {
                state.overflowed = true
                alarm.raise()
                return
            }
            state.pendingEvents += 1
            state.messages.append((encoder.message(for: envelope), true))
        }
    }

    /// Marks events up to `seq` as already delivered (they went out inside `hello`).
    func skipEvents(through seq: UInt64) {
        state.withLock { $0.lastEventSeq = max($0.lastEventSeq, seq) }
    }

    func push(_ message: OutgoingMessage) {
        state.withLock { $0.messages.append((message, false)) }
    }

    func pushFront(_ message: OutgoingMessage) {
        state.withLock { state in
            if state.head > 0 {
                state.head -= 1
                state.messages[state.head] = (message, false)
            } else {
                state.messages.insert((message, false), at: 0)
            }
        }
    }

    /// Stats replace stats not yet sent: only the newest matters.
    func setStats(_ message: OutgoingMessage) {
        state.withLock { $0.stats = message }
    }

    /// The next message in order; stats go after queued messages.
    func pop() -> OutgoingMessage? {
        state.withLock { state in
            if state.head < state.messages.count {
                let (message, isEvent) = state.messages[state.head]
                state.head += 1
                if isEvent { state.pendingEvents -= 1 }
                if state.head == state.messages.count {
                    state.messages.removeAll(keepingCapacity: state.messages.count < 1024)
                    state.head = 0
                } else if state.head > 256, state.head * 2 > state.messages.count {
                    state.messages.removeFirst(state.head)
                    state.head = 0
                }
                return message
            }
            defer { state.stats = nil }
            return state.stats
        }
    }

    var isEmpty: Bool { state.withLock { $0.head >= $0.messages.count && $0.stats == nil } }

    var overflowed: Bool { state.withLock { $0.overflowed } }
}
