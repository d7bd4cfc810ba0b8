import ForceLayout

/// Who added which cells during this server run, as runs of consecutive ids (an `add`
/// makes consecutive ids, and ids are never reused, so runs arrive in ascending order).
/// Kept beside the engine, which knows nothing of clients. Cells restored from a state file
/// have no owner: client ids start over with every run.
public struct Ownership {
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

    public private(set) var runs: [Run] = []

    public mutating func record(_ ids: [CellID], by client: String) {
        for id in ids {
            if var run = runs.last, run.client == client, run.last + 1 == id {
                run.last = id
                runs[runs.count - 1] = run
            } else {
                runs.append(Run(client: client, first: id, last: id))
            }
        }
    }

    /// Runs narrowed to the cells in `ids` (ascending): each run keeps only its smallest and
    /// largest live id, runs without live cells are dropped for good, and neighbours of the
    /// same client merge once no live cell lies between them. O(cells + runs).
    public mutating func compact(to ids: [CellID]) -> [Run] {
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
        runs = kept
        return kept
    }
}
