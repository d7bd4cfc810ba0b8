import Glibc

/// What says a file changed without reading it: its device and inode, size and modification
/// time (to the nanosecond). A file rewritten in place, replaced by a rename, or touched gets
/// another stamp.
struct FileStamp: Hashable, Sendable {
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
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                  modifiedSeconds: status.st_mtim.tv_sec, modifiedNanoseconds: status.st_mtim.tv_nsec)
    }
}

/// Room files found unusable (corrupt, too large, not a file), with their stamp when they were
/// judged: a handshake or an export of such a room is refused at once, without reading the file
/// again, until the file changes. Service thread only; at most `capacity` files are remembered
/// (the oldest verdict goes first).
struct FileVerdicts {
    struct Verdict: Equatable {
        var stamp: FileStamp
        var why: String
    }

    let capacity: Int
    private var verdicts: [String: Verdict] = [:]
    private var order: [String] = []

    init(capacity: Int = 1024) { self.capacity = capacity }

    var count: Int { verdicts.count }

    /// Why the file at `path` is refused, if it was judged unusable and still has `stamp`.
    /// A verdict on another stamp is forgotten (the file changed: judge it again).
    mutating func refusal(of path: String, stamp: FileStamp?) -> String? {
        guard let verdict = verdicts[path] else { return nil }
        guard verdict.stamp == stamp else {
            forget(path)
            return nil
        }
        return verdict.why
    }

    /// The file at `path`, as it was at `stamp`, is unusable.
    mutating func refuse(_ path: String, stamp: FileStamp, why: String) {
        if verdicts[path] == nil {
            order.append(path)
            if order.count > capacity { verdicts[order.removeFirst()] = nil }
        }
        verdicts[path] = Verdict(stamp: stamp, why: why)
    }

    mutating func forget(_ path: String) {
        guard verdicts.removeValue(forKey: path) != nil else { return }
        order.removeAll { $0 == path }
    }
}
