import EventBus
import LayoutCore
import Synchronization

/// Where a room's history is kept beside memory: its folder (`HistoryFolder`, `--state-dir`),
/// or in a cluster a Redis stream. Each call is queued and returns at once (the room's turn
/// makes them).
package protocol HistorySink: Sendable {
    /// A new segment from `checkpoint`, after dropping the `dropped` oldest.
    func start(_ checkpoint: Checkpoint, dropped: Int)
    func append(_ envelope: Envelope<LayoutEvent>)
    func append(_ keyframe: Keyframe)
    /// The history as kept, within `bounds`; nil: none (on the caller's thread).
    func load(bounds: HistoryBounds) -> HistoryLog?
    /// The room was forgotten or deleted: its history goes.
    func remove()
    /// Waits for what is queued.
    func flush()
}

/// A room's history (`HistoryLog`), shared: the room's turn appends to it (`HistoryRecorder`),
/// readers take a copy (an O(1) copy-on-write of its segments) and rebuild moments from it
/// off the stepping and service threads (`HistoryReader`). With a sink (a folder with
/// `--state-dir`, a Redis stream in a cluster), each record goes there too, and is read back
/// when the room loads or is taken over.
package final class RoomHistory: Sendable {
    package let bounds: HistoryBounds
    private let log: Mutex<HistoryLog>
    private let sink: (any HistorySink)?
    private let cache = Mutex(MomentCache())
    /// Moments asked of it and not answered yet (`HistoryReader`).
    private let readers = Atomic<Int>(0)
    /// Moments answered so far (`HistoryReader`: its cache is let go once idle).
    private let answers = Atomic<Int>(0)

    package init(bounds: HistoryBounds, sink: (any HistorySink)? = nil) {
        self.bounds = bounds
        self.sink = bounds.isOff ? nil : sink
        log = Mutex(HistoryLog(bounds: bounds))
    }

    /// No history is kept (`--history-bytes 0` or `--history-seconds 0`).
    package var isOff: Bool { bounds.isOff }

    /// The history as it is now.
    package var current: HistoryLog { log.withLock { $0 } }

    /// Someone waits for a moment of it (the room then steps on one core: `RoomLayout.step`).
    package var isRead: Bool { readers.load(ordering: .relaxed) > 0 }

    /// A moment was asked of it (`began`) or answered (`!began`).
    func reading(_ began: Bool) {
        readers.add(began ? 1 : -1, ordering: .relaxed)
    }

    /// A moment was answered; returns how many have been.
    func answered() -> Int {
        answers.add(1, ordering: .relaxed).newValue
    }

    /// The moments rebuilt lately go, unless one was answered after the `answered`-th, or one
    /// is asked for (`HistoryReader`, once the room has been idle).
    func releaseMoments(ifLastAnswered answered: Int) {
        guard answers.load(ordering: .relaxed) == answered, !isRead else { return }
        moments = MomentCache()
    }

    /// Whether it keeps moments rebuilt lately (a room nobody scrubs keeps none).
    package var keepsMoments: Bool { !moments.isEmpty }

    /// The moments rebuilt lately (`HistoryReader`'s queue, one at a time).
    package var moments: MomentCache {
        get { cache.withLock { $0 } }
        set { cache.withLock { $0 = newValue } }
    }

    /// The moments rebuilt lately, taken out (none left here) until they are put back
    /// (`moments`): the only reference to them, so a moment goes on from one in place rather
    /// than from a copy of a whole room (`MomentCache`). `HistoryReader`'s queue.
    package func takeMoments() -> MomentCache {
        cache.withLock { kept in
            var taken = MomentCache()
            swap(&taken, &kept)
            return taken
        }
    }

    func wantsCheckpoint(at now: Int) -> Bool { log.withLock { $0.wantsCheckpoint(at: now) } }

    func start(_ checkpoint: Checkpoint) {
        let dropped = log.withLock { $0.start(checkpoint) }
        sink?.start(checkpoint, dropped: dropped)
    }

    func append(_ envelope: Envelope<LayoutEvent>) {
        log.withLock { $0.append(envelope) }
        sink?.append(envelope)
    }

    func append(_ keyframe: Keyframe) {
        log.withLock { $0.append(keyframe) }
        sink?.append(keyframe)
    }

    /// Reads the history kept (the room's file reader, or the server taking a room over, before
    /// its layout is made); returns the last event's number in it, which the room's numbering
    /// goes on from.
    package func load() -> UInt64? {
        guard let sink, let loaded = sink.load(bounds: bounds) else { return nil }
        log.withLock { $0 = loaded }
        moments = MomentCache()
        return loaded.lastSeq
    }

    /// The room was forgotten or deleted: its history goes with it.
    func remove() {
        log.withLock { $0 = HistoryLog(bounds: bounds) }
        moments = MomentCache()
        sink?.remove()
    }

    /// The writes queued reach the file (a server stopping).
    func flush() {
        sink?.flush()
    }
}
