extension Simulation {
    /// Every link, in the order they were made.
    public var links: [Link] { linkTable.links }

    /// Links cells, all or none: each end must be a cell, no cell links to itself, no two
    /// cells are linked twice (either way round, here or already), and a distance or
    /// strength must be finite and at least 0. The layout moves again.
    public func link(_ new: [Link]) throws(LayoutError) {
        try link(new, placing: true)
    }

    /// `placing`: a cell linked for the first time is placed among its neighbours (the graph
    /// model). A saved layout's links (`init(snapshot:)`) place nothing: its cells are where
    /// they were saved.
    func link(_ new: [Link], placing: Bool) throws(LayoutError) {
        var seen = Set<LinkKey>()
        for link in new {
            guard contains(link.source) else { throw .unknownCell(link.source) }
            guard contains(link.target) else { throw .unknownCell(link.target) }
            guard link.source != link.target else { throw .selfLink(link.source) }
            guard link.distance.map({ $0.isFinite && $0 >= 0 }) ?? true,
                  link.strength.map({ $0.isFinite && $0 >= 0 }) ?? true else {
                throw .invalidLink(link.source, link.target)
            }
            guard !linkTable.contains(link.source, link.target), seen.insert(link.key).inserted else {
                throw .duplicateLink(link.source, link.target)
            }
        }
        guard !new.isEmpty else { return }
        // A cell linked for the first time starts at the mean of its linked neighbours.
        let unplaced = !placing ? [] : Set((new.flatMap { [$0.source, $0.target] }).filter { linkTable.degree(of: $0) == 0 })
            .compactMap { index[$0] }.filter { !pinned[$0] }
        linkTable.append(new)
        graph.linked(new.count, total: linkTable.count)
        if !unplaced.isEmpty && usesGraphModel {
            let pairs = new.flatMap { link -> [(Int, Int)] in
                let a = index[link.source]!, b = index[link.target]!
                return [(a, b), (b, a)]
            }
            placeAtNeighbours(pairs, unplaced: Set(unplaced))
        }
        forcesChanged()
    }

    /// Removes the links between these pairs (either way round), all or none: each must be
    /// a link. The layout moves again.
    public func unlink(_ pairs: [(CellID, CellID)]) throws(LayoutError) {
        var keys = Set<LinkKey>()
        for (a, b) in pairs {
            guard linkTable.contains(a, b) else { throw .unknownLink(a, b) }
            keys.insert(LinkKey(a, b))
        }
        guard !keys.isEmpty else { return }
        linkTable.remove(keys)
        graphChanged(membership: true)
        forcesChanged()
    }

    /// Adds the links' pulls to the forces of this step (nothing without links).
    func addLinkForces(parallel: Bool?) {
        guard !linkTable.isEmpty else { return }
        let index = self.index
        let prepared = linkTable.prepare(cellCount: count) { index[$0] }
        LinkForce(length: parameters.edgeLength, strength: parameters.linkStrength)
            .add(prepared, xs: xs, ys: ys, parallel: parallel, fx: &forceX, fy: &forceY)
    }
}
