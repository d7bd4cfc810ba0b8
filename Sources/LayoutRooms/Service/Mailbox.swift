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
///
/// Frames are not queued here (a connection gets the room's newest, `PublishedFrame`): they
/// go once everything queued is written, except `joined` and `left`, which no frame depends
/// on. A burst of those (a server draining: hundreds of clients leaving one server and
/// joining another, each announced to every reader) would otherwise hold every reader's
/// frames back for as many writes (`framesMayPass`).
package final class Mailbox: Sendable {
    package enum Overflow: Equatable {
        case events(Int)
        case bytes(Int)
    }

    /// A message waiting, with what it counts toward.
    private struct Queued {
        let message: OutgoingMessage
        /// An event (`maxEventBacklog` counts those).
        var isEvent = false
        /// Part of the opening (always taken; never in a batch: `hello` comes alone, first).
        var isOpening = false
        /// A frame must not go before it: all but `joined` and `left` events.
        var holdsFrames = true
    }

    private struct State {
        var messages: [Queued] = []
        var head = 0
        var pendingEvents = 0
        /// Messages queued that a frame must not pass.
        var holdingFrames = 0
        /// Bytes of the messages queued, and of the opening's among them.
        var queuedBytes = 0
        var openingBytes = 0
        var lastEventSeq: UInt64 = 0
        var stats: OutgoingMessage?
        var overflow: Overflow?

        var hasQueued: Bool { head < messages.count }

        mutating func append(_ queued: Queued) {
            count(queued)
            messages.append(queued)
        }

        mutating func prepend(_ queued: Queued) {
            count(queued)
            if head > 0 {
                head -= 1
                messages[head] = queued
            } else {
                messages.insert(queued, at: 0)
            }
        }

        private mutating func count(_ queued: Queued) {
            queuedBytes += queued.message.count
            if queued.isOpening { openingBytes += queued.message.count }
            if queued.isEvent { pendingEvents += 1 }
            if queued.holdsFrames { holdingFrames += 1 }
        }

        /// The message at the head, taken off the queue.
        mutating func take() -> OutgoingMessage {
            let queued = messages[head]
            head += 1
            queuedBytes -= queued.message.count
            if queued.isOpening { openingBytes -= queued.message.count }
            if queued.isEvent { pendingEvents -= 1 }
            if queued.holdsFrames { holdingFrames -= 1 }
            if head == messages.count {
                messages.removeAll(keepingCapacity: messages.count < 1024)
                head = 0
            } else if head > 256, head * 2 > messages.count {
                messages.removeFirst(head)
                head = 0
            }
            return queued.message
        }

        /// Whether the head may join a batch of `bytes` so far.
        func headJoins(batchOf bytes: Int) -> Bool {
            guard hasQueued else { return false }
            let queued = messages[head]
            return !queued.isOpening && MessageBatch.admits(queued.message) && bytes + queued.message.count <= MessageBatch.maxBytes
        }
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
        state.holdingFrames = 0
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
            state.append(Queued(message: message, isEvent: true, holdsFrames: !envelope.event.kind.isPresence))
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
            state.append(Queued(message: message))
        }
    }

    /// Queues `message` before everything else (hello and the first frame, on connecting):
    /// part of the opening, always taken.
    package func pushFront(_ message: OutgoingMessage) {
        state.withLock { state in
            guard state.overflow == nil else { return }
            state.prepend(Queued(message: message, isOpening: true))
        }
    }

    /// Queues the last message of the opening (the room's `data`, after hello and the first
    /// frame) in order; like them, always taken.
    package func pushOpening(_ message: OutgoingMessage) {
        state.withLock { state in
            guard state.overflow == nil else { return }
            state.append(Queued(message: message, isOpening: true))
        }
    }

    /// Stats replace stats not yet sent: only the newest matters.
    package func setStats(_ message: OutgoingMessage) {
        state.withLock { $0.stats = message }
    }

    /// The next message in order; stats go after queued messages. With `batching`, the text
    /// messages queued behind it come too, as one `batch` (`MessageBatch`): the opening never
    /// does, nor a binary message, nor more than `MessageBatch.maxBytes` in all.
    package func pop(batching: Bool = false) -> OutgoingMessage? {
        let taken: [OutgoingMessage] = state.withLock { state in
            guard state.hasQueued else {
                defer { state.stats = nil }
                return state.stats.map { [$0] } ?? []
            }
            guard batching, state.headJoins(batchOf: 0) else { return [state.take()] }
            var batch = [state.take()], bytes = batch[0].count
            while state.headJoins(batchOf: bytes) {
                batch.append(state.take())
                bytes += batch[batch.count - 1].count
            }
            if !state.hasQueued, let stats = state.stats, bytes + stats.count <= MessageBatch.maxBytes {
                batch.append(stats)
                state.stats = nil
            }
            return batch
        }
        return taken.isEmpty ? nil : MessageBatch.joined(taken)
    }

    /// Whether a frame may go before what is queued: nothing queued is one it must follow
    /// (only `joined`, `left` and the stats wait, if anything).
    package var framesMayPass: Bool { state.withLock { $0.holdingFrames == 0 } }

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
