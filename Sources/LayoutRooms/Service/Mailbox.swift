import EventBus
import LayoutCore
import Synchronization

/// What waits to be written to one connection. Filled from any thread (events from the
/// simulation thread, replies from the service thread), emptied on the service thread.
///
/// Bounded two ways: at most `maxEventBacklog` undelivered events, and at most `maxBytes`
/// of queued messages beside the opening. Past either, the mailbox overflows: it drops what it
/// holds, takes nothing more and raises the alarm, and the connection is closed as too slow.
/// The opening (`hello`, the first frame, the room's `data`) is always taken, whatever its
/// size: a connection must get it, and a large room's is larger than any budget that would
/// still catch a slow reader. It is counted (`queuedBytes`, `openingBytes`) and bounded by the
/// room: `hello` carries at most `Limits.replayBytes` of history, and the frame and the data
/// are encoded once and shared by the room's joiners. So a connection that never reads holds
/// at most its opening, `maxBytes` more, and the message being written, which lws holds until
/// the socket takes it. Into a queue holding nothing beyond the opening one message is always
/// taken, however large (a replay of a huge layout).
package final class Mailbox: Sendable {
    package enum Overflow: Equatable {
        case events(Int)
        case bytes(Int)
    }

    private struct State {
        var messages: [(message: OutgoingMessage, isEvent: Bool, isOpening: Bool)] = []
        var head = 0
        var pendingEvents = 0
        /// Bytes of the messages queued, and of the opening's among them.
        var queuedBytes = 0
        var openingBytes = 0
        var lastEventSeq: UInt64 = 0
        var stats: OutgoingMessage?
        var overflow: Overflow?
    }

    private let state = Mutex(State())
    private let maxEventBacklog: Int
    private let maxBytes: Int
    private let encoder: EventMessages
    private let alarm: OverflowAlarm

    /// `encoder` is shared by every mailbox, so an event is encoded once for all of them;
    /// `alarm` is raised when this mailbox overflows.
    package init(maxEventBacklog: Int, maxBytes: Int = .max, encoder: EventMessages = EventMessages(),
         alarm: OverflowAlarm = OverflowAlarm()) {
        self.maxEventBacklog = maxEventBacklog
        self.maxBytes = maxBytes
        self.encoder = encoder
        self.alarm = alarm
    }

    /// Whether `count` more bytes fit the budget beside the opening; if not, the mailbox overflows.
    private func admit(_ count: Int, _ state: inout State) -> Bool {
        guard state.overflow == nil else { return false }
        let beside = state.queuedBytes - state.openingBytes
        guard beside > 0, beside + count > maxBytes else { return true }
        overflow(.bytes(maxBytes), &state)
        return false
    }

    private func overflow(_ reason: Overflow, _ state: inout State) {
        state.overflow = reason
        state.messages.removeAll()
        state.head = 0
        state.queuedBytes = 0
        state.openingBytes = 0
        state.pendingEvents = 0
        alarm.raise()
    }

    /// Queues an event unless it was already queued (a replay and a live delivery may
    /// overlap); past the backlog bound the mailbox is marked overflowed instead.
    package func pushEvent(_ envelope: Envelope<LayoutEvent>) {
        state.withLock { state in
            guard envelope.seq > state.lastEventSeq, state.overflow == nil else { return }
            state.lastEventSeq = envelope.seq
            guard state.pendingEvents < maxEventBacklog else {
                overflow(.events(maxEventBacklog), &state)
                return
            }
            let message = encoder.message(for: envelope)
            guard admit(message.count, &state) else { return }
            state.pendingEvents += 1
            state.queuedBytes += message.count
            state.messages.append((message, true, false))
        }
    }

    /// Marks events up to `seq` as already delivered (they went out inside `hello`).
    package func skipEvents(through seq: UInt64) {
        state.withLock { $0.lastEventSeq = max($0.lastEventSeq, seq) }
    }

    /// Queues a reply (an error, a replay); past the byte budget the mailbox overflows instead.
    package func push(_ message: OutgoingMessage) {
        state.withLock { state in
            guard admit(message.count, &state) else { return }
            state.queuedBytes += message.count
            state.messages.append((message, false, false))
        }
    }

    /// Queues `message` before everything else (hello and the first frame, on connecting):
    /// part of the opening, always taken.
    package func pushFront(_ message: OutgoingMessage) {
        state.withLock { state in
            guard state.overflow == nil else { return }
            state.queuedBytes += message.count
            state.openingBytes += message.count
            if state.head > 0 {
                state.head -= 1
                state.messages[state.head] = (message, false, true)
            } else {
                state.messages.insert((message, false, true), at: 0)
            }
        }
    }

    /// Queues the last message of the opening (the room's `data`, after hello and the first
    /// frame) in order; like them, always taken.
    package func pushOpening(_ message: OutgoingMessage) {
        state.withLock { state in
            guard state.overflow == nil else { return }
            state.queuedBytes += message.count
            state.openingBytes += message.count
            state.messages.append((message, false, true))
        }
    }

    /// Stats replace stats not yet sent: only the newest matters.
    package func setStats(_ message: OutgoingMessage) {
        state.withLock { $0.stats = message }
    }

    /// The next message in order; stats go after queued messages.
    package func pop() -> OutgoingMessage? {
        state.withLock { state in
            if state.head < state.messages.count {
                let (message, isEvent, isOpening) = state.messages[state.head]
                state.head += 1
                state.queuedBytes -= message.count
                if isOpening { state.openingBytes -= message.count }
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

    package var isEmpty: Bool { state.withLock { $0.head >= $0.messages.count && $0.stats == nil } }

    package var overflow: Overflow? { state.withLock { $0.overflow } }

    package var overflowed: Bool { overflow != nil }

    /// Bytes queued, the opening's included.
    package var queuedBytes: Int { state.withLock { $0.queuedBytes } }

    /// Messages queued, the stats included.
    package var queuedCount: Int { state.withLock { $0.messages.count - $0.head + ($0.stats == nil ? 0 : 1) } }

    /// Bytes of the opening still queued.
    var openingBytes: Int { state.withLock { $0.openingBytes } }
}
