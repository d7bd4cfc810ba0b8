/// A cell's identity; positive, ascending in insertion order, never reused.
public typealias CellID = Int

/// One shared force-directed layout: the cells (structure of arrays, in membership order)
/// and the physics that moves them. Owned by one thread at a time, hence not Sendable.
public final class Simulation {
    /// Whatever is set is brought into the table's ranges first (`Parameters.sanitized`), so
    /// the physics uses the values as they are. A change that moves cells differently makes
    /// the damping stale (see `Rest`).
    public var parameters: Parameters {
        didSet {
            parameters = parameters.sanitized
            if parameters.edgeLength != oldValue.edgeLength || parameters.linkStrength != oldValue.linkStrength
                || parameters.model != oldValue.model {
                graphChanged(scale: true)
            }
            if !parameters.movesCellsLike(oldValue) { forcesChanged() }
        }
    }
    /// The number of steps taken.
    public internal(set) var tick: Int = 0
    /// Increments on every membership change (add, remove, clear affecting a cell).
    public internal(set) var version: Int = 0
    /// Membership order: ascending id; removal keeps the order of the rest.
    public internal(set) var ids: [CellID] = []
    public internal(set) var xs: [Double] = []
    public internal(set) var ys: [Double] = []
    /// The id the next added cell gets; starts at 1, ids are never reused.
    public internal(set) var nextID: CellID = 1
    /// The report of the last step. Before any step, and after any change that moves cells
    /// differently until the next step, settled iff no cell can move.
    public internal(set) var lastReport: StepReport

    /// Same order as `ids`; a pinned cell is held at its position. (Set by this file, and by
    /// `restore`, which rebuilds the arrays.)
    var pinned: [Bool] = []
    /// Same order as `ids`: a cell's own radius, or 0 for the default (half the cell size,
    /// following `cellSize`); see `Simulation+Radii.swift`.
    var radii: [Double] = []
    /// How many cells have a radius of their own.
    public internal(set) var customRadii = 0
    /// Same order as `ids`: what the integrator remembers per cell.
    var motion = Motion()
    /// id -> index into the arrays; rebuilt when removal compacts them (or `restore` merges).
    var index: [CellID: Int] = [:]
    var rng: SeededRandom
    private var maxStepOverride: Double?
    /// Scratch force buffers, kept between steps to avoid reallocating.
    var forceX: [Double] = []
    var forceY: [Double] = []
    /// Rebuilt every step when `theta > 0`; kept to reuse its storage.
    var tree = QuadTree()
    /// Positions at the start of a step, when collisions need them.
    var startX: [Double] = []
    var startY: [Double] = []
    /// With collisions, what damping withheld from each cell's step (see `Rest`).
    var withheld: [Double] = []
    /// The first step under the current forces: damping learned before it is stale (`Rest`).
    private(set) var forcesSince = 0
    /// Whether `motion` holds contact pushes that must be released when `collide` goes off.
    var contactsHeld = false
    /// The links between cells (`Simulation+Links.swift`).
    var linkTable = LinkTable()
    /// What the graph model keeps between steps (`Simulation+Graph.swift`).
    var graph: GraphState

    public init(parameters: Parameters = .defaults, seed: UInt64 = 1) {
        self.parameters = parameters.sanitized
        self.rng = SeededRandom(seed: seed)
        self.graph = GraphState(seed: seed)
        self.lastReport = StepReport(maxMove: 0, totalMove: 0, settled: true)
    }

    /// The largest distance a cell may move in one step. Unless set, it follows the cell
    /// size: half a cell (10 at the default size of 20), at least 2 world units. At 20 steps
    /// per second that is a brisk but smooth 200 units/s, while a step's movement near
    /// equilibrium (well under a unit) is never affected. Setting a non-finite or
    /// non-positive value falls back to the default.
    public var maxStep: Double {
        get {
            if let m = maxStepOverride, m.isFinite, m > 0 { return m }
            return Self.defaultMaxStep(cellSize: parameters.cellSize)
        }
        set { maxStepOverride = newValue; forcesChanged() }
    }

    static func defaultMaxStep(cellSize: Double) -> Double {
        Swift.max(2, cellSize / 2)
    }

    public var count: Int { ids.count }

    public func contains(_ id: CellID) -> Bool { index[id] != nil }

    public func isPinned(_ id: CellID) -> Bool {
        guard let i = index[id] else { return false }
        return pinned[i]
    }

    /// The pinned cells' ids, ascending.
    public var pinnedIDs: [CellID] {
        pinned.indices.lazy.filter { self.pinned[$0] }.map { self.ids[$0] }
    }

    public func position(of id: CellID) -> (x: Double, y: Double)? {
        guard let i = index[id] else { return nil }
        return (xs[i], ys[i])
    }

    /// The smallest box holding every cell's center (pinned ones included); nil when empty.
    public func contentBounds() -> Bounds? {
        guard var minX = xs.first, var minY = ys.first else { return nil }
        var maxX = minX, maxY = minY
        for i in 1..<xs.count {
            minX = Swift.min(minX, xs[i]); maxX = Swift.max(maxX, xs[i])
            minY = Swift.min(minY, ys[i]); maxY = Swift.max(maxY, ys[i])
        }
        return Bounds(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    // MARK: Membership

    /// Adds `count` cells (none if `count <= 0`) and returns their ids, ascending.
    @discardableResult
    public func add(count: Int, spawn: Spawn = .random) -> [CellID] {
        guard count > 0 else { return [] }
        let points = spawnPositions(count: count, spawn: spawn)
        return append(points.map { CellSeed(x: $0.x, y: $0.y) })
    }

    /// Where `count` new cells start.
    func spawnPositions(count: Int, spawn: Spawn) -> [(x: Double, y: Double)] {
        let existing = self.count
        let cellSize = parameters.cellSize
        return SpawnArea.positions(
            count: count, spawn: spawn,
            area: { SpawnArea.area(content: contentBounds(), existing: existing, adding: count, cellSize: cellSize) },
            rng: &rng)
    }

    /// Adds cells with these positions and radii (placed: `x` and `y` set), ids ascending.
    func append(_ placed: [CellSeed]) -> [CellID] {
        var added: [CellID] = []
        added.reserveCapacity(placed.count)
        for seed in placed {
            appendCell(id: nextID, x: seed.x!, y: seed.y!, pinned: false, radius: seed.radius ?? 0)
            added.append(nextID)
            nextID += 1
        }
        version += 1
        forcesChanged()
        return added
    }

    /// Removes the given cells, all or nothing: an unknown id throws and removes nothing.
    /// Duplicates count once. Returns the removed ids, ascending.
    public func remove(ids toRemove: [CellID]) throws(LayoutError) -> [CellID] {
        for id in toRemove where index[id] == nil {
            throw .unknownCell(id)
        }
        let doomed = Set(toRemove)
        guard !doomed.isEmpty else { return [] }
        return compact(removing: { doomed.contains($0) })
    }

    /// Removes the `n` highest ids (fewer if fewer exist); returns them ascending.
    @discardableResult
    public func removeNewest(_ n: Int) -> [CellID] {
        guard n > 0, !ids.isEmpty else { return [] }
        // Membership order is ascending id, so the newest are the tail.
        let first = Swift.max(0, ids.count - n)
        let doomed = Array(ids[first...])
        customRadii -= radii[first...].lazy.filter { $0 > 0 }.count
        ids.removeSubrange(first...)
        xs.removeSubrange(first...)
        ys.removeSubrange(first...)
        pinned.removeSubrange(first...)
        radii.removeSubrange(first...)
        motion.truncate(to: first)
        for id in doomed { index[id] = nil }
        if !linkTable.isEmpty { linkTable.remove(touching: Set(doomed)) }
        linkTable.invalidate()
        version += 1
        graphChanged(membership: true)
        forcesChanged()
        return doomed
    }

    /// Removes every cell; ids keep counting from `nextID`. Returns the removed ids, ascending.
    @discardableResult
    public func clear() -> [CellID] {
        guard !ids.isEmpty else { return [] }
        let all = ids
        ids.removeAll(); xs.removeAll(); ys.removeAll(); pinned.removeAll(); index.removeAll()
        radii.removeAll(); customRadii = 0
        linkTable = LinkTable()
        motion = Motion()
        version += 1
        graph = GraphState(seed: splitMix64(UInt64(truncatingIfNeeded: version)))
        forcesChanged()
        return all
    }

    // MARK: Pinning

    /// Moves the cell to (x, y) and holds it there until unpinned.
    public func pin(_ id: CellID, x: Double, y: Double) throws(LayoutError) {
        guard let i = index[id] else { throw .unknownCell(id) }
        guard x.isFinite, y.isFinite else { throw .invalidPosition }
        xs[i] = x
        ys[i] = y
        pinned[i] = true
        forcesChanged()
    }

    public func unpin(_ id: CellID) throws(LayoutError) {
        guard let i = index[id] else { throw .unknownCell(id) }
        guard pinned[i] else { return }
        pinned[i] = false
        forcesChanged()
    }

    // MARK: Storage

    /// Appends at the end; callers keep ids ascending.
    func appendCell(id: CellID, x: Double, y: Double, pinned isPinned: Bool, radius: Double = 0) {
        linkTable.invalidate()
        index[id] = ids.count
        ids.append(id)
        xs.append(x)
        ys.append(y)
        pinned.append(isPinned)
        radii.append(radius)
        if radius > 0 { customRadii += 1 }
        motion.append()
    }

    /// Compacts the arrays in one pass, preserving the order of the survivors.
    private func compact(removing doomed: (CellID) -> Bool) -> [CellID] {
        var removed: [CellID] = []
        var kept = 0
        for i in 0..<ids.count {
            let id = ids[i]
            if doomed(id) {
                removed.append(id)
                index[id] = nil
                if radii[i] > 0 { customRadii -= 1 }
                continue
            }
            if kept != i {
                ids[kept] = id; xs[kept] = xs[i]; ys[kept] = ys[i]; pinned[kept] = pinned[i]; radii[kept] = radii[i]
                motion.move(from: i, to: kept)
                index[id] = kept
            }
            kept += 1
        }
        guard !removed.isEmpty else { return [] }
        ids.removeSubrange(kept...)
        xs.removeSubrange(kept...)
        ys.removeSubrange(kept...)
        pinned.removeSubrange(kept...)
        radii.removeSubrange(kept...)
        motion.truncate(to: kept)
        if !linkTable.isEmpty { linkTable.remove(touching: Set(removed)) }
        linkTable.invalidate()
        version += 1
        graphChanged(membership: true)
        forcesChanged()
        return removed
    }

    /// Every gain learned so far is stale from the next step on (see `Rest`), and the layout
    /// is no longer known to be at rest: until a step says otherwise, it is settled only if no
    /// cell can move.
    func forcesChanged() {
        graphChanged()
        forcesSince = tick
        lastReport.settled = !pinned.contains(false)
    }

    /// Sets the report a fresh simulation (or one restored from a snapshot) starts with.
    func resetReport() {
        lastReport = StepReport(maxMove: 0, totalMove: 0, settled: !pinned.contains(false))
    }
}
