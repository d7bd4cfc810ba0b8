import ForceLayout
import Foundation
import LayoutCore

/// Where a forgotten room's file goes instead of being deleted: `.forgotten/STEM.SECONDS.json`
/// beside it (`SECONDS`: when it was moved, Unix time), kept for the retention period and then
/// deleted. Moving it back (`mv .forgotten/demo.1764163200.json demo.json`) restores the room.
/// The start-up scan of room files never looks inside (a folder is not a room file).
enum ForgottenFiles {
    static let folder = ".forgotten"

    /// The folder beside the state file at `path`.
    static func directory(beside path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(folder).path
    }

    /// The name the file at `path` gets in the folder when moved at `seconds` (`attempt` > 0:
    /// that name was taken already).
    static func name(of path: String, at seconds: Int, attempt: Int = 0) -> String {
        var stem = URL(fileURLWithPath: path).lastPathComponent
        if stem.hasSuffix(".json") { stem.removeLast(5) }
        return "\(stem).\(seconds)\(attempt > 0 ? "-\(attempt)" : "").json"
    }

    /// Whether writing `layout` over a file whose highest cell id is `fileMaxID` (nil: the file
    /// holds no cells) would keep none of its cells: they were all removed (`clear`), perhaps
    /// with new ones added since. Ids are never reused, so a cell kept has an id at most
    /// `fileMaxID`.
    static func losesEveryCell(fileMaxID: CellID?, _ layout: LayoutSnapshot) -> Bool {
        guard let fileMaxID else { return false }
        return layout.cells.allSatisfy { $0.id > fileMaxID }
    }

    /// When the file named `name` was moved aside (nil: not a name `name(of:at:)` gives).
    static func movedAt(_ name: String) -> Int? {
        guard name.hasSuffix(".json") else { return nil }
        let inner = name.dropLast(5)
        guard let dot = inner.lastIndex(of: "."), dot > inner.startIndex else { return nil }
        let stamp = inner[inner.index(after: dot)...].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard !stamp.isEmpty, stamp.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
        return Int(stamp)
    }

    /// Which of `names` are older than `retention` seconds at `now` (names of other files:
    /// never).
    static func expired(_ names: [String], now: Double, retention: Double) -> [String] {
        names.filter { name in movedAt(name).map { now - Double($0) >= retention } ?? false }.sorted()
    }

    /// Puts the file at `path` into the folder at `directory` (made if need be), and with
    /// `removing` takes it away from `path`; returns where it went, nil when there was no file;
    /// throws when it could not be kept. Without `removing` the file stays at `path` too (a
    /// second name for it), so a crash before the write that replaces it loses nothing: that
    /// write's rename gives `path` the new file and leaves the kept one as it is.
    static func keep(_ path: String, in directory: String, removing: Bool, now: Date = Date()) throws(StateFile.Failure) -> String? {
        guard access(path, F_OK) == 0 else { return nil }
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw StateFile.Failure(description: "cannot make \(directory): \(String(cString: strerror(errno)))")
        }
        for attempt in 0..<100 {
            let target = "\(directory)/\(name(of: path, at: Int(now.timeIntervalSince1970), attempt: attempt))"
            // A link never replaces a file already there (rename would); a copy where links
            // cannot be made.
            if link(path, target) == 0 || (errno != EEXIST && (try? FileManager.default.copyItem(atPath: path, toPath: target)) != nil) {
                if removing { unlink(path) }
                return target
            }
            guard errno == EEXIST || access(target, F_OK) == 0 else {
                throw StateFile.Failure(description: "cannot keep \(path) as \(target): \(String(cString: strerror(errno)))")
            }
        }
        throw StateFile.Failure(description: "cannot keep \(path) aside: too many files of the same second in \(directory)")
    }

    /// Deletes the files of the folder at `directory` forgotten longer than `retention`
    /// seconds; returns their names. Only regular files of its own naming are touched.
    static func purge(_ directory: String, retention: Double, now: Double = Date().timeIntervalSince1970) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in expired(names, now: now, retention: retention) {
            let path = "\(directory)/\(name)"
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if unlink(path) == 0 { removed.append("\(folder)/\(name)") }
        }
        return removed
    }
}
