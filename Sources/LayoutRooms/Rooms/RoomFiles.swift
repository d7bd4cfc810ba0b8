import Foundation
import LayoutCore

/// Where rooms keep their state: `DIR/NAME.json` with `--state-dir`, and room `main` in
/// `--state FILE` when that is given (so a state file from before rooms loads as `main`).
package struct RoomFiles: Sendable {
    let directory: String?
    let mainFile: String?

    /// No room keeps a file.
    var isEmpty: Bool { directory == nil && mainFile == nil }

    package func path(for name: RoomName) -> String? {
        if name == .main, let mainFile { return mainFile }
        return directory.map { "\($0)/\(name).json" }
    }

    /// The folder of the room's history (`HistoryFolder`): `DIR/NAME.history` beside
    /// `DIR/NAME.json`, `FILE.history` beside `--state FILE`; nil for a room without a file.
    package func historyPath(for name: RoomName) -> String? {
        path(for: name).map { path in (path.hasSuffix(".json") ? String(path.dropLast(5)) : path) + ".history" }
    }

    /// Every room with a file, from one listing of the directory (files named for something
    /// that is not a room name are not rooms, and are left alone).
    func stored() -> [RoomName] {
        var names: [RoomName] = []
        if let directory, let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) {
            for entry in entries where entry.hasSuffix(".json") {
                guard let name = RoomName(entry.dropLast(5)), path(for: name) == "\(directory)/\(entry)" else { continue }
                names.append(name)
            }
        }
        if let mainFile, FileManager.default.fileExists(atPath: mainFile) { names.append(.main) }
        return names
    }

    /// Where the room's file goes when it is forgotten (`ForgottenFiles`).
    func asidePath(for name: RoomName) -> String? {
        path(for: name).map(ForgottenFiles.directory(beside:))
    }

    /// Deletes the files forgotten longer than `retention` seconds; returns their names.
    func purgeForgotten(olderThan retention: Double) -> [String] {
        let folders = Set([directory.map { "\($0)/\(ForgottenFiles.folder)" },
                           mainFile.map(ForgottenFiles.directory(beside:))].compactMap { $0 })
        return folders.sorted().flatMap { ForgottenFiles.purge($0, retention: retention) }
    }

    /// Removes the temporary files crashed writers left; returns their names.
    func removeStaleTemporaries() -> [String] {
        (directory.map { StaleTemporaries.remove(inDirectory: $0) } ?? [])
            + (mainFile.map { StaleTemporaries.remove(beside: $0) } ?? [])
    }
}
