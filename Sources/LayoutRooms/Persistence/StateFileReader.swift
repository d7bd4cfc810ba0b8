import Dispatch
import LayoutCore

/// Reads and checks room files off the service thread, one at a time: a room's file can be tens
/// of megabytes and take seconds to read, check and (for an export) encode, which on the
/// service thread would stall every connection. What a job finds goes back to the service
/// thread through a `ServiceQueue`.
package final class StateFileReader: Sendable {
    private let queue = DispatchQueue(label: "forcelayout.state-files")

    /// Runs `job` on the reader's thread, after `closing` (a write of the same room's file under
    /// way: the file is read once it is whole).
    package func submit(after closing: DispatchGroup?, _ job: @escaping @Sendable () -> Void) {
        queue.async {
            closing?.wait()
            job()
        }
    }

    /// A room's file read and checked against the limits, with the stamp it had before it was
    /// read (a verdict is remembered under it). `.success(nil)`: there is no file.
    package static func read(_ path: String, limits: Limits) -> (Result<SavedState?, StateFile.Failure>, FileStamp?) {
        let stamp = FileStamp(path: path)
        do {
            return (.success(try load(path, limits: limits)), stamp)
        } catch {
            return (.failure(error), stamp)
        }
    }

    /// The state in the file at `path` (nil: no file), refused when it is not a valid state
    /// file or holds more cells or links than a room may.
    static func load(_ path: String, limits: Limits) throws(StateFile.Failure) -> SavedState? {
        let saved = try StateFile.load(from: path)
        if let saved, saved.layout.cells.count > limits.maxCells {
            throw StateFile.Failure(description: "state file \(path) holds \(saved.layout.cells.count) cells, more than --max-cells \(limits.maxCells)")
        }
        if let saved, saved.layout.links.count > limits.maxLinks {
            throw StateFile.Failure(description: "state file \(path) holds \(saved.layout.links.count) links, more than --max-links \(limits.maxLinks)")
        }
        return saved
    }
}
