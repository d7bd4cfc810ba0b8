import Foundation
import LayoutCore

/// A state file on disk: read whole, written atomically (a temporary file beside it, fsync,
/// rename, fsync of the folder), so a crash leaves either the old or the new file.
extension StateFile {
    /// The saved state, or nil when there is no file yet. A file that exists but is not a
    /// valid state file is an error, and is left untouched.
    public static func load(from path: String) throws(Failure) -> SavedState? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read state file \(path)")
        }
        return try decode(Array(data), path: path)
    }

    public static func save(_ state: SavedState, to path: String) throws {
        try AtomicFile.write(bytes(of: state), to: path)
    }
}

/// A small file written so that a crash leaves either the old or the new one: a temporary
/// file beside it (`TemporaryName`), fsync, rename, fsync of the folder.
package enum AtomicFile {
    package static func write(_ data: [UInt8], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = "\(directory)/\(TemporaryName.make(for: url.lastPathComponent, pid: getpid()))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw StateFile.Failure(description: "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var failed = false
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { failed = true; return }
                offset += written
            }
        }
        if fsync(descriptor) != 0 { failed = true }
        close(descriptor)
        guard !failed, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw StateFile.Failure(description: "cannot write state file \(path): \(String(cString: strerror(errno)))")
        }
        // Make the rename itself durable.
        let directoryDescriptor = open(directory, O_RDONLY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}
