/// The ages of the frames a shard's clients got in the measured window (arrival minus the
/// frame's `at`, ms), by kind of client; the shards' are added together for the report.
public struct FrameAges: Sendable {
    /// Readers that read everything.
    public var readers = LatencyHistogram()
    /// Slow readers (`--slow`): when a frame had arrived whole,
    public var slow = LatencyHistogram()
    /// and when its first bytes arrived (what the server chose, before the reader's own pace).
    public var slowStarts = LatencyHistogram()

    public init() {}

    public mutating func add(_ other: FrameAges) {
        readers.add(other.readers)
        slow.add(other.slow)
        slowStarts.add(other.slowStarts)
    }

    static func merged(_ all: some Sequence<FrameAges>) -> FrameAges {
        all.reduce(into: FrameAges()) { $0.add($1) }
    }
}
