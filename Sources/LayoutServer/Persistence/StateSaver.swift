import Dispatch
import ForceLayout
import Logging
import Synchronization

/// Writes snapshots off the simulation thread, newest wins: while one write runs, further
/// offers replace each other and only the last is written next.
final class StateSaver: Sendable {
    private let path: String
    private let logger: Logger
    private let queue = DispatchQueue(label: "forcelayout.state")
    private let pending = Mutex<LayoutSnapshot?>(nil)

    init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
    }

    func offer(_ snapshot: LayoutSnapshot) {
        let wasIdle = pending.withLock { pending in
            defer { pending = snapshot }
            return pending == nil
        }
        guard wasIdle else { return }
        queue.async { self.writePending() }
    }

    /// Writes `snapshot` now, after any write under way (shutdown).
    func flush(_ snapshot: LayoutSnapshot) {
        queue.sync {
            pending.withLock { $0 = nil }
            write(snapshot)
        }
    }

    private func writePending() {
        guard let snapshot = pending.withLock({ pending -> LayoutSnapshot? in
            defer { pending = nil }
            return pending
        }) else { return }
        write(snapshot)
    }

    private func write(_ snapshot: LayoutSnapshot) {
        do {
            try StateFile.save(snapshot, to: path)
        } catch {
            logger.error("saving state failed: \(error)")
        }
    }
}
