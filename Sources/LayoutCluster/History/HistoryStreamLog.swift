import EventBus
import ForceLayout
import LayoutCore

/// One entry of a room's history stream (`ClusterKeys.history`): its ID and one record, framed
/// as a history file frames it (`HistoryFileFormat`: length, CRC-32, type, body), so a damaged
/// or foreign entry is told from a whole one.
struct HistoryStreamEntry: Sendable, Equatable {
    let id: HistoryStreamID
    let record: [UInt8]

    /// The entry's one field.
    static let field = "r"
}

/// A room's history read from its stream, entry after entry, into a `HistoryLog` within this
/// server's bounds: the whole stream (a server taking the room over) or what came since the
/// last read (a relay answering its clients' `history` and `moment`). Pure: the entries come
/// from Redis on the caller's side.
struct HistoryStreamLog: Sendable {
    private(set) var log: HistoryLog
    /// Where the segments kept start in the stream.
    private(set) var segments = HistoryStreamSegments()
    /// The last entry read (nil: none yet): the next read starts after it.
    private(set) var last: HistoryStreamID?
    /// Entries that did not read as records (damaged, foreign, or out of order): skipped.
    private(set) var skipped = 0
    /// The ids of the last checkpoint or keyframe with ids (a keyframe without ids has them).
    private var ids: [CellID] = []
    /// The last event's number: events go on after it (a restore's checkpoint has its event's).
    private var lastEvent: UInt64 = 0

    init(bounds: HistoryBounds) {
        log = HistoryLog(bounds: bounds)
    }

    /// Applies what `chunk` holds (the entries after `last`, oldest first), and reads on after
    /// its last item; returns the ID the stream may be
    /// trimmed to when the bounds dropped segments (`HistoryStreamSegments.started`), else nil.
    /// Events and keyframes before the first checkpoint belong to no segment and are skipped,
    /// as are events not numbered after the last one kept.
    @discardableResult
    mutating func apply(_ chunk: HistoryStreamChunk) -> HistoryStreamID? {
        var trim: HistoryStreamID?
        defer { if let end = chunk.last { last = max(last ?? end, end) } }
        for entry in chunk.entries {
            if let last, entry.id <= last {
                skipped += 1
                continue
            }
            last = entry.id
            guard let (record, next) = HistoryFileFormat.record(in: entry.record, at: 0, ids: &ids),
                  next == entry.record.count, let record else {
                skipped += 1
                continue
            }
            switch record {
            case .checkpoint(let checkpoint):
                let dropped = log.start(checkpoint)
                if let minimum = segments.started(entry.id, dropped: dropped) { trim = minimum }
            case .event(let envelope):
                guard !log.isEmpty, envelope.seq > lastEvent else {
                    skipped += 1
                    continue
                }
                lastEvent = envelope.seq
                log.append(envelope)
            case .keyframe(let keyframe):
                guard !log.isEmpty else { continue }
                log.append(keyframe)
            }
        }
        return trim
    }
}
