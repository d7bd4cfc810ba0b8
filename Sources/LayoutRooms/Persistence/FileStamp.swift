import Glibc

/// What says a file changed without reading it: its device and inode, size and modification
/// time (to the nanosecond). A file rewritten in place, replaced by a rename, or touched gets
/// another stamp. A room's file is only replaced when it is still the version this server last
/// wrote or read (`StateFileDestination`), so a file put there by someone else while the server
/// runs is never overwritten; a file found unusable is judged again only once its stamp changes
/// (`FileVerdicts`).
package struct FileStamp: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    init(device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// The stamp of the file at `path` (links followed); nil when there is none.
    package init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                  modifiedSeconds: status.st_mtim.tv_sec, modifiedNanoseconds: status.st_mtim.tv_nsec)
    }
}
