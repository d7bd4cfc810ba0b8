/// Where each segment of a room's history starts in its Redis stream: the ID its checkpoint
/// got (nil: the checkpoint never reached the stream), oldest first, as `HistoryLog` keeps the
/// segments. When the log drops its oldest segments (`HistoryLog.start` says how many: past
/// `--history-bytes`, or older than `--history-seconds`), the stream drops their entries too:
/// every one before the checkpoint of the oldest segment kept (`XTRIM MINID`), so the stream
/// always starts with a checkpoint. Pure.
struct HistoryStreamSegments: Sendable, Equatable {
    /// A handful: a segment holds an eighth of the history or more, up to 4 MiB
    /// (`HistoryBounds.segmentBytes`): a few hundred for a history of a GiB.
    private(set) var starts: [HistoryStreamID?] = []

    init() {}

    /// A segment started at `id` (nil: its checkpoint was not written), after the log dropped
    /// its `dropped` oldest; returns the ID to trim the stream to (XTRIM MINID), nil when
    /// nothing is to go. Only a checkpoint written bounds the trim: entries of a kept segment
    /// whose checkpoint is missing cannot be read on their own, so they go with the dropped.
    mutating func started(_ id: HistoryStreamID?, dropped: Int) -> HistoryStreamID? {
        let dropping = min(max(0, dropped), starts.count)
        starts.removeFirst(dropping)
        starts.append(id)
        return dropping > 0 ? oldest : nil
    }

    /// The checkpoint the stream starts at now (the oldest written of the segments kept).
    var oldest: HistoryStreamID? { starts.first { $0 != nil } ?? nil }

    var count: Int { starts.count }
}
