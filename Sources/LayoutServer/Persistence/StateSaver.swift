import Dispatch
import Foundation
import ForceLayout
import Logging
import Synchronization

/// Where a room's state goes: its file, or (in a cluster) its key in Redis.
protocol StateDestination: Sendable {
    /// Writes `state` durably (a file: fsynced and renamed into place); false on failure,
    /// having logged why.
    func write(_ state: SavedState) -> Bool
    func remove()
}

/// A room's state file (`StateFile.save`).
struct StateFileDestination: StateDestination {
    let path: String
    let logger: Logger

    func write(_ state: SavedState) -> Bool {
        do {
            try StateFile.save(state, to: path)
            return true
        } catch {
            logger.error("saving state failed: \(error)")
            return false
        }
    }

    func remove() { unlink(path) }
}

/// Writes the state off the simulation thread, newest wins: while one write runs, further
/// offers replace each other and only the last is written next. Writes run one at a time,
/// in the order they were offered. Whether the last write reached the disk is kept, so the
/// room can tell its clients when what they were acknowledged is not saved (a full disk).
final class StateSaver: Sendable {
    private let destination: any StateDestination
    private let queue = DispatchQueue(label: "forcelayout.state")
    private let pending = Mutex<SavedState?>(nil)
    /// The reservation of the last write this run completed (fsync and rename); 0 before it.
    private let durable = Atomic<CellID>(0)
    /// Offered writes not yet finished.
    private let outstanding = Atomic<Int>(0)
    private let lastFailed = Atomic<Bool>(false)

    init(_ destination: any StateDestination) {
        self.destination = destination
    }

    /// The highest reservation on disk from this run's writes (0 before the first one).
    var durableReservation: CellID { durable.load(ordering: .acquiring) }

    /// A write offered is still to finish.
    var isBusy: Bool { outstanding.load(ordering: .acquiring) > 0 }

    /// The last write that finished did not reach the disk.
    var lastWriteFailed: Bool { lastFailed.load(ordering: .acquiring) }

    func offer(_ state: SavedState) {
        let wasIdle = pending.withLock { pending in
            defer { pending = state }
            return pending == nil
        }
        guard wasIdle else { return }
        outstanding.add(1, ordering: .acquiringAndReleasing)
        queue.async {
            self.writePending()
            self.outstanding.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    /// Writes `state` now, after any write under way (an offer not yet started is dropped:
    /// `state` is newer), and returns whether it reached the disk.
    @discardableResult
    func writeNow(_ state: SavedState) -> Bool {
        queue.sync {
            pending.withLock { $0 = nil }
            return write(state)
        }
    }

    /// Deletes the file, after any write under way; an offer not yet started is dropped.
    func remove() {
        queue.sync {
            pending.withLock { $0 = nil }
            destination.remove()
        }
    }

    private func writePending() {
        guard let state = pending.withLock({ pending -> SavedState? in
            defer { pending = nil }
            return pending
        }) else { return }
        write(state)
    }

    @discardableResult
    private func write(_ state: SavedState) -> Bool {
        guard destination.write(state) else {
            lastFailed.store(true, ordering: .releasing)
            return false
        }
        _ = durable.max(state.reservation, ordering: .releasing)
        lastFailed.store(false, ordering: .releasing)
        return true
    }
}
