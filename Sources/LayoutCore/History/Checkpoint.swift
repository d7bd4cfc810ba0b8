import ForceLayout

/// The whole room at one moment of its history, as its state file would hold it: where a
/// segment of the history starts, so rebuilding a moment (`MomentState`) applies the events
/// of one segment at most.
public struct Checkpoint: Sendable {
    public let at: Int
    public let tick: Int
    /// The last event it includes (0: none yet).
    public let seq: UInt64
    public let state: SavedState

    public init(at: Int, tick: Int, seq: UInt64, state: SavedState) {
        self.at = at
        self.tick = tick
        self.seq = seq
        self.state = state
    }

    /// Bytes it takes in the history, about what its file form holds (a bound, not exact).
    public var bytes: Int {
        let cells = state.layout.cells.count, links = state.layout.links.count
        let data = state.catalog.data.values.reduce(0) { $0 + $1.approximateBytes }
        return 256 + cells * 64 + links * 40 + data
    }
}

extension CellData {
    /// About what its JSON takes.
    var approximateBytes: Int {
        (label?.utf8.count ?? 0) + (color?.utf8.count ?? 0) + (group?.utf8.count ?? 0) + (attrs == nil ? 0 : 64) + 24
    }
}
