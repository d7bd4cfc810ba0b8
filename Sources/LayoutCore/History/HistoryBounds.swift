/// How much history a room keeps: at most `bytes` (as `HistoryLog` counts them) and nothing
/// older than `seconds`; the oldest segment goes first (`HistoryLog.trim`).
public struct HistoryBounds: Sendable, Equatable {
    public var bytes: Int
    public var seconds: Int

    public init(bytes: Int, seconds: Int) {
        self.bytes = max(0, bytes)
        self.seconds = max(0, seconds)
    }

    /// A segment is closed (the next record opens one with a checkpoint) past this size, so
    /// dropping the oldest frees an eighth of the history or so, and rebuilding a moment
    /// applies at most this many bytes of events: never more than 4 MiB (the default history's
    /// eighth), so a long history (`--history-bytes` of hundreds of MiB) is scrubbed as fast as
    /// the default one, with more segments.
    public var segmentBytes: Int { min(max(bytes / 8, 256 << 10), Self.largestSegment) }

    /// The most a segment holds past its checkpoint.
    public static let largestSegment = 4 << 20

    /// Keeps nothing.
    public static let off = HistoryBounds(bytes: 0, seconds: 0)

    /// No history at all.
    public var isOff: Bool { bytes == 0 || seconds == 0 }
}
