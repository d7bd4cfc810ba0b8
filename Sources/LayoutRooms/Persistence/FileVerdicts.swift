/// Room files found unusable (corrupt, too large, not a file), with their stamp when they were
/// judged: a handshake or an export of such a room is refused at once, without reading the file
/// again, until the file changes. Service thread only; at most `capacity` files are remembered
/// (the oldest verdict goes first).
package struct FileVerdicts {
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
    package mutating func refusal(of path: String, stamp: FileStamp?) -> String? {
        guard let verdict = verdicts[path] else { return nil }
        guard verdict.stamp == stamp else {
            forget(path)
            return nil
        }
        return verdict.why
    }

    /// The file at `path`, as it was at `stamp`, is unusable.
    package mutating func refuse(_ path: String, stamp: FileStamp, why: String) {
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
