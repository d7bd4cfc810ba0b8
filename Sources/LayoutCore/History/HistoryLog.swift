import DequeModule
import EventBus
import ForceLayout

/// A room's history in memory: segments (`HistorySegment`), each a checkpoint with the events
/// and keyframes after it, bounded by `HistoryBounds` (the oldest segment is dropped first,
/// never the newest). Pure: the room's turn appends to it, readers rebuild moments from a copy.
public struct HistoryLog: Sendable {
    public let bounds: HistoryBounds
    private(set) var segments: Deque<HistorySegment> = []
    /// What the segments take, as they count it.
    public private(set) var bytes = 0

    public init(bounds: HistoryBounds) {
        self.bounds = bounds
    }

    public var isEmpty: Bool { segments.isEmpty }
    /// The oldest moment one can go back to.
    public var oldestAt: Int? { segments.first?.firstAt }
    /// The newest time filed.
    public var newestAt: Int? { segments.last?.lastAt }
    public var segmentCount: Int { segments.count }

    /// Whether the next record should open a segment (`start`): there is none, or what the
    /// last one holds after its checkpoint passed `HistoryBounds.segmentBytes`. The checkpoint
    /// itself does not count: one of a large room may be bigger than a segment's size, and
    /// every event after it would take another.
    public var wantsCheckpoint: Bool {
        guard let last = segments.last else { return true }
        return last.bytesSinceCheckpoint > bounds.segmentBytes
    }

    /// The same for a record filed at `now`, which also opens a segment when the newest record
    /// kept is older than `seconds` (a room quiet for longer): the segment before, whose moments
    /// run up to now, goes once they are all past the age kept (`trim`), instead of growing on
    /// with new records from a start older than that.
    public func wantsCheckpoint(at now: Int) -> Bool {
        guard let last = segments.last else { return true }
        return wantsCheckpoint || last.lastAt < now - bounds.seconds * 1000
    }

    /// Opens a segment from `checkpoint` (the first, after a restore, or when the last grew
    /// full), then drops what the bounds no longer hold as of `checkpoint.at`; returns how
    /// many of the oldest segments it dropped.
    @discardableResult
    public mutating func start(_ checkpoint: Checkpoint) -> Int {
        segments.append(HistorySegment(checkpoint: checkpoint))
        bytes += segments[segments.count - 1].bytes
        return trim(now: checkpoint.at)
    }

    /// The last event kept, or the newest checkpoint's (0: none).
    public var lastSeq: UInt64 {
        guard let last = segments.last else { return 0 }
        return max(last.checkpoint.seq, last.events.last?.seq ?? 0)
    }

    /// `envelope` joins the last segment (there must be one: `start` first).
    public mutating func append(_ envelope: Envelope<LayoutEvent>) {
        guard !segments.isEmpty else { return }
        let before = segments[segments.count - 1].bytes
        segments[segments.count - 1].append(envelope)
        bytes += segments[segments.count - 1].bytes - before
    }

    public mutating func append(_ keyframe: Keyframe) {
        guard !segments.isEmpty else { return }
        let before = segments[segments.count - 1].bytes
        segments[segments.count - 1].append(keyframe)
        bytes += segments[segments.count - 1].bytes - before
    }

    /// Drops the oldest segments while the history passes its bytes, or while the next segment
    /// starts before `now - seconds` (everything in the oldest is older than that); the newest
    /// stays whatever its size.
    @discardableResult
    public mutating func trim(now: Int) -> Int {
        let horizon = now - bounds.seconds * 1000
        var dropped = 0
        while segments.count > 1, bytes > bounds.bytes || segments[1].firstAt < horizon {
            bytes -= segments.removeFirst().bytes
            dropped += 1
        }
        return dropped
    }

    /// Up to `count` events older than `before` (all: nil), oldest first, and whether older ones
    /// are kept.
    public func events(before: UInt64?, count: Int) -> (events: [Envelope<LayoutEvent>], more: Bool) {
        var picked: [Envelope<LayoutEvent>] = []
        for segment in segments.reversed() {
            for envelope in segment.events.reversed() where before.map({ envelope.seq < $0 }) ?? true {
                if picked.count == count { return (picked.reversed(), true) }
                picked.append(envelope)
            }
        }
        return (picked.reversed(), false)
    }

    /// The room as it was at `at` (clamped to the oldest moment kept: `clamped`), with the
    /// keyframe nearest at or before it and a few after (for cells added since that keyframe);
    /// nil when nothing is kept. `cache`: states rebuilt before (`MomentCache`): the moment goes
    /// on from the furthest along of its segment not past it instead of rebuilding the
    /// checkpoint, and it is kept there, with the checkpoint's state when that was rebuilt.
    public func moment(at: Int, cache: inout MomentCache) -> Moment? {
        guard let oldest = oldestAt else { return nil }
        let clamped = at < oldest
        let time = max(at, oldest)
        // The last segment that starts at or before the moment.
        var index = segments.count - 1
        while index > 0 && segments[index].firstAt > time { index -= 1 }
        let segment = segments[index]
        let events = segment.events(atOrBefore: time)
        let through = max(segment.checkpoint.seq, events.last?.seq ?? 0)
        let origin = (segment.checkpoint.at, segment.checkpoint.seq)
        var state: MomentState
        if let kept = cache.start(origin: origin, through: through) {
            state = kept
        } else {
            state = MomentState(checkpoint: segment.checkpoint)
            cache.keep(state)
        }
        for envelope in events where envelope.seq > state.seq && envelope.seq > segment.checkpoint.seq {
            state.apply(envelope)
        }
        state.tidy()
        cache.keep(state)
        let (before, after) = segment.keyframes(around: time, later: Moment.laterKeyframes)
        var later = Array(after)
        var next = index + 1
        while later.count < Moment.laterKeyframes && next < segments.count {
            later.append(contentsOf: segments[next].keyframes.prefix(Moment.laterKeyframes - later.count))
            next += 1
        }
        return Moment(at: time, clamped: clamped, state: state, keyframe: before, later: later)
    }

    /// The room as it was at `at`, rebuilt from its segment's checkpoint (`moment(at:cache:)`).
    public func moment(at: Int) -> Moment? {
        var cache = MomentCache()
        return moment(at: at, cache: &cache)
    }

    /// The events after `have` through `seq` that changed the cells' data or links (`added`,
    /// `removed`, `cleared`, `updated`, `linked`, `unlinked`), oldest first: what a client
    /// holding the data as of `have` (an earlier answer's `dataSeq`) applies to have it as of
    /// `seq` (a `moment` answer's `since`: a handle dragged forward through a busy room brings
    /// a few events, not every cell's data again). Nil when they are not all kept, when one of
    /// them replaced the data whole (a `restored`, a `deleted`), or past `limit` events or
    /// `bytes` (their messages' size): the whole data is then the smaller answer.
    public func dataEvents(after have: UInt64, through seq: UInt64, limit: Int = 256,
                           bytes: Int = 128 << 10) -> [Envelope<LayoutEvent>]? {
        guard have < seq, let first = segments.first, first.checkpoint.seq <= have else { return nil }
        var picked: [Envelope<LayoutEvent>] = []
        var size = 0
        for segment in segments {
            let events = segment.events
            guard let last = events.last, last.seq > have else { continue }
            guard events[0].seq <= seq else { break }
            // The first event after `have` (events are in seq order).
            var low = 0, high = events.count
            while low < high {
                let middle = (low + high) / 2
                if events[middle].seq <= have { low = middle + 1 } else { high = middle }
            }
            for envelope in events[low...] {
                guard envelope.seq <= seq else { return picked }
                let kind = envelope.event.kind
                guard kind.changesCellData else { continue }
                guard kind != .restored, kind != .deleted else { return nil }
                size += envelope.event.replayBytes
                guard picked.count < limit, size <= bytes else { return nil }
                picked.append(envelope)
            }
        }
        return picked
    }

    /// One rebuilt moment (`moment(at:)`).
    public struct Moment: Sendable {
        /// Keyframes after the moment searched for cells the one before it lacks.
        static let laterKeyframes = 4
        public let at: Int
        public let clamped: Bool
        public let state: MomentState
        public let keyframe: Keyframe?
        public let later: [Keyframe]

        public var placed: [(id: CellID, x: Double, y: Double)] { state.placed(keyframe: keyframe, later: later) }
    }
}
