import Dispatch
import ForceLayout
import Foundation
import LayoutCore
import Logging
import Synchronization

/// Where a room's state goes: its file, or (in a cluster) its key in Redis.
package protocol StateDestination: Sendable {
    /// Writes `state` durably (a file: fsynced and renamed into place); false on failure,
    /// having logged why.
    func write(_ state: SavedState) -> Bool
    func remove()
}

/// A room's state file (`StateFile.save`). It replaces only the version it last wrote or was
/// read from (`known`; nil: there must be no file): a file put there by someone else while the
/// room is in memory is left as it is, and the save fails (the log says why).
/// A layout with cells is never lost to a `clear` or a forgotten room: the file is moved aside
/// (`ForgottenFiles`) before a layout that keeps none of its cells replaces it, and when the
/// room is forgotten.
final class StateFileDestination: StateDestination {
    let path: String
    /// Where files with cells go instead of being replaced by an empty layout or deleted.
    let aside: String?
    let logger: Logger
    /// The version on disk this room last wrote or read, and its highest cell id (nil: no
    /// cells).
    private let known: Mutex<(stamp: FileStamp?, maxID: CellID?)>

    /// `known`: the file as read (nil: there must be none); `maxID`: its highest cell id.
    init(path: String, aside: String?, known: FileStamp?, maxID: CellID?, logger: Logger) {
        self.path = path
        self.aside = aside
        self.logger = logger
        self.known = Mutex((known, maxID))
    }

    func write(_ state: SavedState) -> Bool {
        guard isOurs else {
            logger.error("not saving \(path): the file changed on disk since this server last wrote or read it (put there by someone else?); it is left as it is, and this room's changes are not saved")
            return false
        }
        if ForgottenFiles.losesEveryCell(fileMaxID: known.withLock { $0.maxID }, state.layout) {
            setAside(because: "none of its cells are left (cleared)", removing: false)
        }
        do {
            try StateFile.save(state, to: path)
            known.withLock { $0 = (FileStamp(path: path), state.layout.cells.lazy.map(\.id).max()) }
            return true
        } catch {
            logger.error("saving state failed: \(error)")
            return false
        }
    }

    func remove() {
        guard isOurs else {
            logger.warning("\(path) was not removed: it changed on disk since this server last wrote or read it")
            return
        }
        if known.withLock({ $0.maxID != nil }) {
            setAside(because: "its room was forgotten", removing: true)
        } else {
            unlink(path)  // an empty layout: nothing to keep
        }
        known.withLock { $0 = (nil, nil) }
    }

    /// `removing`: the file goes (the room is forgotten); else it stays until the write that
    /// replaces it.
    private func setAside(because why: String, removing: Bool) {
        guard let aside else { return }
        do {
            if let kept = try ForgottenFiles.keep(path, in: aside, removing: removing) {
                logger.info("kept \(path) as \(kept) (\(why)); move it back to restore it")
            }
        } catch {
            logger.error("\(error); the file stays where it is")
        }
    }

    /// Whether the file on disk is the one this room last wrote or read, or there is none
    /// (then nothing is overwritten).
    private var isOurs: Bool {
        guard let now = FileStamp(path: path) else { return true }
        return known.withLock { $0.stamp == now }
    }
}

/// Writes the state off the simulation thread, newest wins: while one write runs, further
/// offers replace each other and only the last is written next. Writes run one at a time,
/// in the order they were offered. Whether the last write reached the disk is kept, so the
/// room can tell its clients when what they were acknowledged is not saved (a full disk).
package final class StateSaver: Sendable {
    private let destination: any StateDestination
    private let queue = DispatchQueue(label: "forcelayout.state")
    private let pending = Mutex<SavedState?>(nil)
    /// The reservation of the last write this run completed (fsync and rename); 0 before it.
    private let durable = Atomic<CellID>(0)
    /// Offered writes not yet finished.
    private let outstanding = Atomic<Int>(0)
    private let lastFailed = Atomic<Bool>(false)

    package init(_ destination: any StateDestination) {
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

    /// Returns once the writes offered so far have ended (reached the destination or failed).
    func waitForWrites() {
        queue.sync {}
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
            RoomMetrics.saveFailures.increment()
            return false
        }
        RoomMetrics.saves.increment()
        _ = durable.max(state.reservation, ordering: .releasing)
        lastFailed.store(false, ordering: .releasing)
        return true
    }
}
