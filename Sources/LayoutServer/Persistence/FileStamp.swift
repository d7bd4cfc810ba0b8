import Glibc

/// What tells one version of a file from another: device, inode, size and modification time.
/// A room's file is only replaced when it is still the version this server last wrote or read,
/// so a file put there by someone else while the server runs is never overwritten.
struct FileStamp: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    /// The regular file at `path` now; nil: there is none (nothing, or not a regular file).
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        seconds = Int(status.st_mtim.tv_sec)
        nanoseconds = Int(status.st_mtim.tv_nsec)
    }
}
