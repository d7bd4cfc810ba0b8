import Foundation
import LayoutCore

/// Temporary state files left behind by writers that died mid-write (kill -9, a crash, a
/// power cut): `.<name>.<pid>.tmp` beside the state file (`TemporaryName`). Removed at
/// start-up when their pid is not a running process, or is ours (left by an earlier process
/// that had our pid). Nothing else is touched: not another name, not a folder or a link.
enum StaleTemporaries {
    /// Removes the stale temporary files of the state file at `statePath` and returns the
    /// names removed. `isRunning` tells whether a pid is a live process.
    static func remove(beside statePath: String, ourPID: Int32 = getpid(),
                       isRunning: (Int32) -> Bool = StaleTemporaries.isRunning) -> [String] {
        let url = URL(fileURLWithPath: statePath)
        let stateName = url.lastPathComponent
        return remove(in: url.deletingLastPathComponent().path, ourPID: ourPID, isRunning: isRunning) {
            TemporaryName.pid(in: $0, for: stateName)
        }
    }

    /// The same for every room file (`*.json`) of a state directory, in one listing.
    static func remove(inDirectory directory: String, ourPID: Int32 = getpid(),
                       isRunning: (Int32) -> Bool = StaleTemporaries.isRunning) -> [String] {
        remove(in: directory, ourPID: ourPID, isRunning: isRunning) { TemporaryName.parse($0)?.pid }
    }

    private static func remove(in directory: String, ourPID: Int32, isRunning: (Int32) -> Bool,
                               pidIn: (String) -> Int32?) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in names.sorted() {
            guard let pid = pidIn(name), pid == ourPID || !isRunning(pid) else { continue }
            let path = "\(directory)/\(name)"
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Whether a process with this pid exists (one we may not signal exists too).
    static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
