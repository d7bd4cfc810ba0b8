/// How a run's clients are spread over its shards (`--processes P`: P threads, each with a
/// libwebsockets context of its own): readers and stalled clients dealt out in turn, so every
/// shard gets a like share of each kind; the control connection on shard 0. Slow readers get
/// one more shard of their own: what they measure is how fresh the server keeps a slow
/// reader's frames, and on a shard busy with hundreds of readers their own pauses ran late.
public struct ShardPart: Equatable, Sendable {
    public var index: Int
    /// The run-wide indices of its readers (with rooms: of their rooms).
    public var readers: [Int]
    public var slow: Int
    public var stalled: Int
    /// It sets the layout up (the control connection).
    public var control: Bool

    public init(index: Int, readers: [Int], slow: Int, stalled: Int, control: Bool) {
        self.index = index
        self.readers = readers
        self.slow = slow
        self.stalled = stalled
        self.control = control
    }

    /// Its connections: readers, then slow readers, then stalled clients.
    public var clients: Int { readers.count + slow + stalled }
}

public enum ShardPlan {
    /// `shards` parts (at most one per client, at least one), plus one for the slow readers.
    public static func parts(readers: Int, slow: Int, stalled: Int, shards: Int) -> [ShardPart] {
        let count = max(1, min(shards, readers + stalled))
        var parts = (0..<count).map { ShardPart(index: $0, readers: [], slow: 0, stalled: 0, control: $0 == 0) }
        var next = 0
        func deal(_ body: (inout ShardPart) -> Void) {
            body(&parts[next])
            next = (next + 1) % count
        }
        for reader in 0..<readers { deal { $0.readers.append(reader) } }
        for _ in 0..<stalled { deal { $0.stalled += 1 } }
        if slow > 0 {
            if readers + stalled == 0 {
                parts[0].slow = slow
            } else {
                parts.append(ShardPart(index: count, readers: [], slow: slow, stalled: 0, control: false))
            }
        }
        return parts
    }
}
