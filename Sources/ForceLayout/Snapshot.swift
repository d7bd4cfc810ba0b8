/// One cell as stored in a snapshot.
public struct CellRecord: Codable, Equatable, Sendable {
    public var id: CellID
    public var x: Double
    public var y: Double
    public var pinned: Bool
    /// The cell's own radius; nil: the default (half of `cellSize`).
    public var radius: Double?

    public init(id: CellID, x: Double, y: Double, pinned: Bool, radius: Double? = nil) {
        self.id = id
        self.x = x
        self.y = y
        self.pinned = pinned
        self.radius = radius
    }
}

/// Everything needed to restore a layout (the random source is not part of it).
public struct LayoutSnapshot: Codable, Equatable, Sendable {
    public var parameters: Parameters
    /// The id the next added cell gets.
    public var nextID: CellID
    /// In membership order (ascending id).
    public var cells: [CellRecord]
    /// In the order they were made.
    public var links: [Link]

    public init(parameters: Parameters, nextID: CellID, cells: [CellRecord], links: [Link] = []) {
        self.parameters = parameters
        self.nextID = nextID
        self.cells = cells
        self.links = links
    }
}

extension Simulation {
    /// Restores a layout. Rejects a non-finite coordinate (`.invalidPosition`), a radius out
    /// of range, a link `link(_:)` would refuse, and a
    /// non-positive or duplicate id or a `nextID` not above every id (`.unknownCell` with the
    /// offending value, since these ids cannot name a cell). Cells are taken in ascending id
    /// order whatever their order in the snapshot; `tick` and `version` start at 0.
    public convenience init(snapshot: LayoutSnapshot, seed: UInt64 = 1) throws(LayoutError) {
        // Files this server writes list cells in ascending id order: then a pass proves the ids
        // distinct, with no set and no sort (a room of 100k cells loads on the service thread).
        var ascending = true
        var previous = 0
        var maxID = 0
        for cell in snapshot.cells {
            guard cell.x.isFinite, cell.y.isFinite else { throw .invalidPosition }
            if let radius = cell.radius, !Self.radiusRange.contains(radius) { throw .invalidRadius(radius) }
            guard cell.id > 0 else { throw .unknownCell(cell.id) }
            if cell.id <= previous { ascending = false }
            previous = cell.id
            maxID = Swift.max(maxID, cell.id)
        }
        var cells = snapshot.cells
        if !ascending {
            cells.sort { $0.id < $1.id }
            for index in cells.indices.dropFirst() where cells[index].id == cells[index - 1].id {
                throw .unknownCell(cells[index].id)
            }
        }
        guard snapshot.nextID > maxID, snapshot.nextID > 0 else { throw .unknownCell(snapshot.nextID) }

        self.init(parameters: snapshot.parameters, seed: seed)
        for cell in cells {
            appendCell(id: cell.id, x: cell.x, y: cell.y, pinned: cell.pinned, radius: cell.radius ?? 0)
        }
        nextID = snapshot.nextID
        // Every cell is where it was saved: none is placed among its neighbours, as a cell
        // linked for the first time is (the neighbours of a pinned cell moved on every load).
        try link(snapshot.links, placing: false)
        // A saved layout is drawn already: it refines from where it is.
        graph.planWanted = false
        graph.linksSincePlan = 0
        graph.linksAtPlan = snapshot.links.count
        graph.drawn = true
        resetReport()
    }

    /// The current layout, cells in membership order.
    public func snapshot() -> LayoutSnapshot {
        var cells: [CellRecord] = []
        cells.reserveCapacity(count)
        for i in 0..<count {
            cells.append(CellRecord(id: ids[i], x: xs[i], y: ys[i], pinned: pinned[i],
                                    radius: radii[i] > 0 ? radii[i] : nil))
        }
        return LayoutSnapshot(parameters: parameters, nextID: nextID, cells: cells, links: links)
    }
}

extension Simulation {
    /// Takes up the counters of a layout another process stepped before this one restored it
    /// (a cluster's failover): `tick` goes on from `tick`, and the membership `version` lies
    /// above `version`, so a client that saw the old ones is never misled by a repeat.
    public func resume(tick: Int, after version: Int) {
        self.tick = Swift.max(self.tick, tick)
        self.version = Swift.max(self.version, version + 1)
    }
}
