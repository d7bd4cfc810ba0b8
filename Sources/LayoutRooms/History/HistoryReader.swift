import Dispatch
import LayoutCore
import Synchronization

/// Rebuilds moments of rooms' histories (`HistoryLog.moment`) for the clients that scrub,
/// on a queue of its own (of a person's priority: someone drags a handle and waits): neither
/// the service thread nor a room's turn waits for it. A room's moments go on from those rebuilt
/// before (`RoomHistory.moments`, whoever asked for them). Each
/// connection has at most one `moment` under way (`PendingMoments`): a newer request replaces
/// one not begun, so a client dragging a timeline gets the latest moment, not a backlog.
///
/// A room's rebuilt moments (a few whole rooms: about 1 MB each at 10k cells) are let go once
/// nobody has asked for one of its moments for `idleRelease` seconds.
package final class HistoryReader: Sendable {
    let queue = DispatchQueue(label: "forcelayout.history", qos: .userInitiated)
    /// Seconds after its last answer that a room's moment cache is let go.
    let idleRelease: Double

    package init(idleRelease: Double = 60) {
        self.idleRelease = idleRelease
    }

    /// A moment asked for by one connection.
    package struct Request: Sendable {
        package let at: Int
        package let have: UInt64?
        /// The client takes a `patch` (docs/protocol.md, "History").
        package let patch: Bool
        package let ref: String?

        package init(at: Int, have: UInt64?, patch: Bool = false, ref: String?) {
            self.at = at
            self.have = have
            self.patch = patch
            self.ref = ref
        }
    }

    /// Answers `request` into `mailbox` (then wakes the service thread through the room),
    /// unless a newer request of the connection replaces it first.
    package func moment(_ request: Request, of room: Room, into mailbox: Mailbox, pending: PendingMoments) {
        guard pending.submit(request) else { return }
        room.history.reading(true)
        queue.async { [self] in answer(request, of: room, into: mailbox, pending: pending) }
    }

    private func answer(_ request: Request, of room: Room, into mailbox: Mailbox, pending: PendingMoments) {
        let bytes: [UInt8]
        // This queue is serial: no other reader changes the room's cache meanwhile. Taken out
        // while a moment is rebuilt, so the state it goes on from is not copied.
        var cache = room.history.takeMoments()
        let log = room.history.current
        if let moment = log.moment(at: request.at, cache: &cache) {
            // Data held from an earlier moment: the changes since, when few; from a later
            // moment (a handle dragged back), when the client takes it: what takes it back.
            let dataSeq = moment.state.dataSeq
            let since = request.have.flatMap { $0 < dataSeq ? log.dataEvents(after: $0, through: dataSeq) : nil }
            let patch = request.have.flatMap { have -> MomentPatch? in
                guard request.patch, have > dataSeq,
                      let events = log.dataEvents(after: dataSeq, through: have, limit: MomentPatch.most, bytes: .max) else { return nil }
                return MomentPatch(undoing: events, to: moment.state)
            }
            bytes = HistoryMessages.moment(moment, have: request.have, since: since, patch: patch, ref: request.ref, cache: &cache)
        } else {
            bytes = ServerMessages.error(ProtocolError(.unavailable, "the room has no history yet", ref: request.ref))
        }
        room.history.moments = cache
        mailbox.push(OutgoingMessage(bytes))
        room.announce()
        let answered = room.history.answered()
        if let next = pending.finished() {
            queue.async { [self] in answer(next, of: room, into: mailbox, pending: pending) }
        } else {
            room.history.reading(false)
        }
        // On this queue, so no answer runs meanwhile: none came since this one, none waits.
        // Weakly: a room that left memory meanwhile is not kept for it.
        queue.asyncAfter(deadline: .now() + idleRelease) { [weak history = room.history] in
            history?.releaseMoments(ifLastAnswered: answered)
        }
    }
}

/// One connection's `moment` requests: the one being answered, and the newest waiting.
package final class PendingMoments: Sendable {
    private let state = Mutex<(running: Bool, waiting: HistoryReader.Request?)>((false, nil))

    package init() {}

    /// Whether `request` is to be answered now; false: it waits (replacing one that waited).
    package func submit(_ request: HistoryReader.Request) -> Bool {
        state.withLock { state in
            guard state.running else {
                state.running = true
                return true
            }
            state.waiting = request
            return false
        }
    }

    /// The one answered is done: the next to answer, if one waits.
    package func finished() -> HistoryReader.Request? {
        state.withLock { state in
            guard let next = state.waiting else {
                state.running = false
                return nil
            }
            state.waiting = nil
            return next
        }
    }
}

extension HistoryReader {
    /// A recording of `span` of `log` (`HistoryLog.recording`), handed to `deliver` (nil: nothing
    /// is kept) from the reader's queue.
    package func recording(of log: HistoryLog, _ span: HistorySpan, deliver: @escaping @Sendable ([UInt8]?) -> Void) {
        queue.async { deliver(log.recording(from: span.from, to: span.to)) }
    }
}
