import LayoutCore
import Synchronization

/// A room's history (`HistoryLog`), shared: the room's turn appends to it (`HistoryRecorder`),
/// readers take a copy (an O(1) copy-on-write of its segments) and rebuild moments from it
/// off the stepping and service threads (`HistoryReader`).
package final class RoomHistory: Sendable {
    package let bounds: HistoryBounds
    private let log: Mutex<HistoryLog>

    init(bounds: HistoryBounds) {
        self.bounds = bounds
        log = Mutex(HistoryLog(bounds: bounds))
    }

    /// No history is kept (`--history-bytes 0` or `--history-seconds 0`).
    package var isOff: Bool { bounds.isOff }

    func change<T>(_ body: (inout HistoryLog) -> T) -> T {
        log.withLock { body(&$0) }
    }

    /// The history as it is now.
    package var current: HistoryLog { log.withLock { $0 } }
}
