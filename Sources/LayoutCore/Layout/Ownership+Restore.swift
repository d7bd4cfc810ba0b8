import ForceLayout

/// Owners looked up and put back, for undo: a removed cell that comes back is its adder's
/// again, whoever brings it back.
extension Ownership {
    /// The client that added each of `ids` (ascending), nil for a cell no run covers (one
    /// restored from a state file older than owners). O(ids + runs).
    public func owners(of ids: [CellID]) -> [String?] {
        var result: [String?] = []
        result.reserveCapacity(ids.count)
        var cursor = 0
        for id in ids {
            while cursor < runs.count, runs[cursor].last < id { cursor += 1 }
            result.append(cursor < runs.count && runs[cursor].first <= id ? runs[cursor].client : nil)
        }
        return result
    }

    /// Gives `cells` (ascending ids, each with its owner) back their owners: a run of another
    /// client that came to span them (runs narrow and merge as cells go, `compact`) is cut
    /// around them. Runs stay ascending and disjoint. O(cells + runs).
    public mutating func restore(_ cells: [(id: CellID, client: String)]) {
        var incoming: [Run] = []
        for cell in cells {
            if var run = incoming.last, run.client == cell.client, run.last + 1 == cell.id {
                run.last = cell.id
                incoming[incoming.count - 1] = run
            } else {
                incoming.append(Run(client: cell.client, first: cell.id, last: cell.id))
            }
        }
        guard !incoming.isEmpty else { return }
        // Every run there is, less the ranges the incoming ones cover; then both, in order.
        var kept: [Run] = []
        var next = 0
        for run in runs {
            var piece = run
            while next < incoming.count, incoming[next].last < piece.first { next += 1 }
            var cut = next
            while cut < incoming.count, incoming[cut].first <= piece.last, piece.first <= piece.last {
                let hole = incoming[cut]
                if hole.first > piece.first { kept.append(Run(client: piece.client, first: piece.first, last: hole.first - 1)) }
                piece.first = hole.last + 1
                cut += 1
            }
            if piece.first <= piece.last { kept.append(piece) }
        }
        var merged: [Run] = []
        merged.reserveCapacity(kept.count + incoming.count)
        var i = 0, j = 0
        while i < kept.count || j < incoming.count {
            if j == incoming.count || (i < kept.count && kept[i].first < incoming[j].first) {
                merged.append(kept[i]); i += 1
            } else {
                merged.append(incoming[j]); j += 1
            }
        }
        self = Ownership(runs: merged)
    }
}
