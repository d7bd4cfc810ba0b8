import ForceLayout

/// What a room's owner knows of its history stream as it writes it (`RedisHistoryStream`): the
/// last ID given, where the segments start, the ids a keyframe may leave out, and the records
/// waiting for Redis, bounded: past `maxQueuedBytes` waiting, or after a write failed, records
/// are dropped until the next checkpoint (events applied to a state that lacks one would
/// rebuild wrong moments; a checkpoint starts a segment readable on its own). Pure.
struct HistoryStreamWriter: Sendable {
    /// Most bytes of records waiting for Redis, per room: a stalled Redis costs this much
    /// memory at most, and the room never waits for it.
    static let maxQueuedBytes = 32 << 20

    let maxQueuedBytes: Int
    /// The last ID given (nil: none yet; after a load, the stream's last).
    private(set) var last: HistoryStreamID?
    private(set) var segments = HistoryStreamSegments()
    /// The ids of the last checkpoint or keyframe with ids given.
    private(set) var ids: [CellID] = []
    /// Bytes of records given an ID and not answered.
    private(set) var queuedBytes = 0
    /// Records are dropped until the next checkpoint.
    private(set) var gap = false
    /// The gap was said (once until a checkpoint goes again).
    private var said = false

    init(maxQueuedBytes: Int = Self.maxQueuedBytes, last: HistoryStreamID? = nil, segments: HistoryStreamSegments = .init()) {
        self.maxQueuedBytes = maxQueuedBytes
        self.last = last
        self.segments = segments
    }

    /// What to do with a record.
    enum Decision: Equatable, Sendable {
        /// XADD it with this ID (and, for a checkpoint, XTRIM MINID `trim` when given).
        case write(HistoryStreamID, trim: HistoryStreamID?)
        /// Drop it (`say`: the first dropped since records last went: log it); a checkpoint
        /// dropped may still trim what the log dropped.
        case drop(say: Bool, trim: HistoryStreamID?)
    }

    /// A checkpoint of `bytes` made at `at`, after the log dropped its `dropped` oldest segments.
    mutating func checkpoint(bytes: Int, at: Int, ids: [CellID], dropped: Int) -> Decision {
        guard queuedBytes + bytes <= maxQueuedBytes else {
            let say = dropping()
            return .drop(say: say, trim: segments.started(nil, dropped: dropped))
        }
        let id = take(bytes, at: at)
        gap = false
        said = false
        self.ids = ids
        return .write(id, trim: segments.started(id, dropped: dropped))
    }

    /// An event or keyframe of `bytes` made at `at`; `ids`: a keyframe's, given with it.
    mutating func record(bytes: Int, at: Int, ids: [CellID]? = nil) -> Decision {
        guard !gap, queuedBytes + bytes <= maxQueuedBytes else { return .drop(say: dropping(), trim: nil) }
        if let ids { self.ids = ids }
        return .write(take(bytes, at: at), trim: nil)
    }

    /// Whether a keyframe of `ids` carries them (they differ from the last given).
    func carries(_ ids: [CellID]) -> Bool { ids != self.ids }

    /// A write of `bytes` was answered; `failed`: it did not reach the stream. Returns whether
    /// to say so (the first failure since records last went).
    mutating func answered(bytes: Int, failed: Bool) -> Bool {
        queuedBytes = max(0, queuedBytes - bytes)
        guard failed else { return false }
        return dropping()
    }

    private mutating func take(_ bytes: Int, at: Int) -> HistoryStreamID {
        let id = HistoryStreamID.next(after: last, at: at)
        last = id
        queuedBytes += bytes
        return id
    }

    private mutating func dropping() -> Bool {
        gap = true
        defer { said = true }
        return !said
    }
}
