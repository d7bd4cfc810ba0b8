import EventBus
import LayoutCore
import Synchronization

/// A room's history (`HistoryLog`), shared: the room's turn appends to it (`HistoryRecorder`),
/// readers take a copy (an O(1) copy-on-write of its segments) and rebuild moments from it
/// off the stepping and service threads (`HistoryReader`). With a folder (`--state-dir`), each
/// record is written there too (`HistoryFolder`), and the folder is read back when the room
/// loads.
package final class RoomHistory: Sendable {
    package let bounds: HistoryBounds
    private let log: Mutex<HistoryLog>
    private let folder: HistoryFolder?

    package init(bounds: HistoryBounds, folder: HistoryFolder? = nil) {
        self.bounds = bounds
        self.folder = bounds.isOff ? nil : folder
        log = Mutex(HistoryLog(bounds: bounds))
    }

    /// No history is kept (`--history-bytes 0` or `--history-seconds 0`).
    package var isOff: Bool { bounds.isOff }

    /// The history as it is now.
    package var current: HistoryLog { log.withLock { $0 } }

    var wantsCheckpoint: Bool { log.withLock { $0.wantsCheckpoint } }

    func start(_ checkpoint: Checkpoint) {
        let dropped = log.withLock { $0.start(checkpoint) }
        folder?.start(checkpoint, dropped: dropped)
    }

    func append(_ envelope: Envelope<LayoutEvent>) {
        log.withLock { $0.append(envelope) }
        folder?.append(envelope)
    }

    func append(_ keyframe: Keyframe) {
        log.withLock { $0.append(keyframe) }
        folder?.append(keyframe)
    }

    /// Reads the folder's history (the room's file reader, before its layout is made); returns
    /// the last event's number in it, which the room's numbering goes on from.
    func load() -> UInt64? {
        guard let folder, let loaded = folder.load(bounds: bounds) else { return nil }
        log.withLock { $0 = loaded }
        return loaded.lastSeq
    }

    /// The room was forgotten or deleted: its history goes with it.
    func remove() {
        log.withLock { $0 = HistoryLog(bounds: bounds) }
        folder?.remove()
    }

    /// The writes queued reach the file (a server stopping).
    func flush() {
        folder?.flush()
    }
}
