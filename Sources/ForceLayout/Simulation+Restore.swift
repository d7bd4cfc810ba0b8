/// Cells brought back with the ids they had (an undone `remove` or `clear`): ids are never
/// handed out twice, so a removed cell's id is free for that cell alone, and a client that
/// knew it by its id finds it again.
extension Simulation {
    /// Puts back cells removed earlier, with their ids, positions, pins and radii, in
    /// membership order (ascending id) among the cells there are; all or none. Each id must be
    /// positive, below `nextID` (an id handed out before), not a cell now, and given once; a
    /// position must be finite and a radius in `radiusRange`. Their links are not restored
    /// here (`link`). `nextID` does not change.
    public func restore(_ cells: [CellRecord]) throws(LayoutError) {
        var seen = Set<CellID>()
        for cell in cells {
            guard cell.id > 0, cell.id < nextID, index[cell.id] == nil, seen.insert(cell.id).inserted else {
                throw .unknownCell(cell.id)
            }
            guard cell.x.isFinite, cell.y.isFinite else { throw .invalidPosition }
            if let radius = cell.radius, !Self.radiusRange.contains(radius) { throw .invalidRadius(radius) }
        }
        guard !cells.isEmpty else { return }
        let incoming = cells.sorted { $0.id < $1.id }
        if let last = ids.last, incoming[0].id < last {
            merge(incoming)
        } else {
            // Above every cell there is (the newest cells removed): appended, as an add does.
            for cell in incoming {
                appendCell(id: cell.id, x: cell.x, y: cell.y, pinned: cell.pinned, radius: cell.radius ?? 0)
            }
        }
        linkTable.invalidate()
        version += 1
        graphChanged(membership: true)
        forcesChanged()
    }

    /// Rebuilds the arrays in one pass with `incoming` (ascending, none present) in their places.
    private func merge(_ incoming: [CellRecord]) {
        let old = (ids: ids, xs: xs, ys: ys, pinned: pinned, radii: radii, motion: motion)
        ids = []; xs = []; ys = []; radii = []
        pinned = []
        motion = Motion()
        index.removeAll(keepingCapacity: true)
        customRadii = 0
        let total = old.ids.count + incoming.count
        ids.reserveCapacity(total); xs.reserveCapacity(total); ys.reserveCapacity(total)
        radii.reserveCapacity(total); pinned.reserveCapacity(total)
        var next = 0
        for i in old.ids.indices {
            while next < incoming.count, incoming[next].id < old.ids[i] {
                let cell = incoming[next]
                appendCell(id: cell.id, x: cell.x, y: cell.y, pinned: cell.pinned, radius: cell.radius ?? 0)
                next += 1
            }
            appendCell(id: old.ids[i], x: old.xs[i], y: old.ys[i], pinned: old.pinned[i], radius: old.radii[i])
            // What the integrator learned of the cells that stayed is kept.
            motion.copy(i, from: old.motion, to: ids.count - 1)
        }
        for cell in incoming[next...] {
            appendCell(id: cell.id, x: cell.x, y: cell.y, pinned: cell.pinned, radius: cell.radius ?? 0)
        }
    }
}
