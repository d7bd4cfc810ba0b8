import ForceLayout

/// Who added which cells, as runs of consecutive ids (an `add` makes consecutive ids, and ids
/// are never reused, so runs arrive in ascending order). Kept beside the engine, which knows
/// nothing of clients, and saved with the layout (`SavedState.owners`): cells restored from a
/// state file, or taken over in a cluster, keep their owners, whose client ids are never
/// handed out again (`ClientNumbering`).
public struct Ownership: Equatable, Sendable {
    public struct Run: Equatable, Sendable {
        public var client: String
        public var first: CellID
        public var last: CellID

        public init(client: String, first: CellID, last: CellID) {
            self.client = client
            self.first = first
            self.last = last
        }
    }

    public init() {}

    /// Runs restored from a state file (`SavedState.owners`: ascending, not overlapping).
    public init(runs: [Run]) { self.runs = runs }

    public private(set) var runs: [Run] = []

    public mutating func record(_ ids: [CellID], by client: String) {
        for id in ids { record(id, by: client) }
    }

    /// `record` of one cell.
    public mutating func record(_ id: CellID, by client: String) {
        if let run = runs.last, run.last + 1 == id, run.client == client {
            runs[runs.count - 1].last = id
        } else {
            runs.append(Run(client: client, first: id, last: id))
        }
    }

    /// Runs narrowed to the cells in `ids` (ascending): each run keeps only its smallest and
    /// largest live id, runs without live cells are dropped for good, and neighbours of the
    /// same client merge once no live cell lies between them. O(cells + runs).
    public mutating func compact(to ids: [CellID]) -> [Run] {
        runs = narrowed(to: ids)
        return runs
    }

    /// The runs `compact` keeps, leaving these as they are (what a state file saves).
    public func narrowed(to ids: [CellID]) -> [Run] {
        var kept: [Run] = []
        var cursor = 0
        for run in runs {
            while cursor < ids.count && ids[cursor] < run.first { cursor += 1 }
            guard cursor < ids.count, ids[cursor] <= run.last else { continue }
            let first = ids[cursor]
            let adjoins = cursor > 0 && kept.last?.last == ids[cursor - 1]
            while cursor + 1 < ids.count && ids[cursor + 1] <= run.last { cursor += 1 }
            let last = ids[cursor]
            cursor += 1
            if adjoins, var previous = kept.last, previous.client == run.client {
                previous.last = last
                kept[kept.count - 1] = previous
            } else {
                kept.append(Run(client: run.client, first: first, last: last))
            }
        }
        return kept
    }

    /// Why `runs` cannot be a room's owners (a state file's, read back), or nil: each run names
    /// a client id as the server makes them, its first id at most its last, within
    /// `1...largestID`, and every run above the one before.
    static func problem(_ runs: [Run], largestID: CellID) -> String? {
        var previous: CellID = 0
        for (index, run) in runs.enumerated() {
            guard WireBounds.validClientID(run.client) else { return "owners.\(index) names no client id" }
            guard previous < run.first, run.first <= run.last, run.last <= largestID else {
                return "owners.\(index) [\(run.first), \(run.last)] is not above the run before it, in order, within [1, \(largestID)]"
            }
            previous = run.last
        }
        return nil
    }
}
