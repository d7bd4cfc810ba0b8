/// What rebuilding a room's moments lately made, kept for whoever scrubs the room next: a few
/// rebuilt states (`MomentState`), so a moment goes on from the nearest one before it in its
/// segment instead of its checkpoint (a handle dragged forward applies only the events since
/// the last moment; dragged back, those since the segment's checkpoint, whose state is kept
/// too), and the data columns of the last answer (`HistoryMessages.dataColumns`), which every
/// moment with the same `dataSeq` shares: a room that only moves answers them once. One per
/// room, shared by everyone scrubbing it (one person dragging back and forth, or ten watching
/// the same past). Pure.
public struct MomentCache: Sendable {
    /// States kept (each a whole room: about 1 MB at 10k cells), least recently used first.
    public static let capacity = 4
    /// A state kept is a snapshot, left as it is when a moment goes on from it (a copy of the
    /// whole room is moved on), when it is its segment's checkpoint or this many events past
    /// the last snapshot; else a moment goes on from it in place (taken out, no copy): a drag
    /// forward copies a room every few hundred events, not at every moment (a fifth of a
    /// moment's time), and a drag back goes on from a snapshot at most this many events before.
    public static let snapshotEvery: UInt64 = 500
    private struct Entry {
        var state: MomentState
        var snapshot: Bool
    }
    private var entries: [Entry] = []
    private var columns: (dataSeq: UInt64, bytes: [UInt8])?

    public init() {}

    /// The states kept, least recently used first.
    var states: [MomentState] { entries.map(\.state) }

    /// Nothing kept.
    public var isEmpty: Bool { entries.isEmpty && columns == nil }

    /// The furthest along of the states kept of the segment from `origin` that is not past
    /// event `seq`: a snapshot stays kept, another is taken out (the moment goes on from it).
    mutating func start(origin: (at: Int, seq: UInt64), through seq: UInt64) -> MomentState? {
        let found = entries.indices.filter { entries[$0].state.origin == origin && entries[$0].state.seq <= seq }
        guard let best = found.max(by: { entries[$0].state.seq < entries[$1].state.seq }) else { return nil }
        return entries[best].snapshot ? entries[best].state : entries.remove(at: best).state
    }

    /// `state` is kept (the least recently used goes past `capacity`).
    mutating func keep(_ state: MomentState) {
        entries.removeAll { $0.state.origin == state.origin && $0.state.seq == state.seq }
        let lastSnapshot = entries.filter { $0.snapshot && $0.state.origin == state.origin && $0.state.seq <= state.seq }
            .map(\.state.seq).max()
        let snapshot = state.seq == state.origin.seq || lastSnapshot.map { state.seq - $0 >= Self.snapshotEvery } ?? true
        entries.append(Entry(state: state, snapshot: snapshot))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    /// The data columns of `state` (`HistoryMessages.dataColumns`), written once for each
    /// `dataSeq`: a `dataSeq` names what the cells, their data and the links were (the event
    /// that last changed them), whichever segment a moment is rebuilt in.
    public mutating func dataColumns(of state: MomentState) -> [UInt8] {
        if let columns, columns.dataSeq == state.dataSeq { return columns.bytes }
        let bytes = HistoryMessages.dataColumns(of: state)
        columns = (state.dataSeq, bytes)
        return bytes
    }
}
