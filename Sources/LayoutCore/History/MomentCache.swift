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
    private(set) var states: [MomentState] = []
    private var columns: (dataSeq: UInt64, bytes: [UInt8])?

    public init() {}

    /// Nothing kept.
    public var isEmpty: Bool { states.isEmpty && columns == nil }

    /// The furthest along of the states kept of the segment from `origin` that is not past
    /// event `seq`.
    func start(origin: (at: Int, seq: UInt64), through seq: UInt64) -> MomentState? {
        states.filter { $0.origin == origin && $0.seq <= seq }.max { $0.seq < $1.seq }
    }

    /// `state` is kept (the least recently used goes past `capacity`).
    mutating func keep(_ state: MomentState) {
        states.removeAll { $0.origin == state.origin && $0.seq == state.seq }
        states.append(state)
        if states.count > Self.capacity { states.removeFirst(states.count - Self.capacity) }
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
