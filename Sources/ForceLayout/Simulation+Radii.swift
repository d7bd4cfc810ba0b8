/// A cell to add: where it starts (nil: spawned, see `Spawn`) and its radius (nil: the
/// default, half of `cellSize`).
public struct CellSeed: Equatable, Sendable {
    public var x: Double?
    public var y: Double?
    public var radius: Double?

    public init(x: Double? = nil, y: Double? = nil, radius: Double? = nil) {
        self.x = x
        self.y = y
        self.radius = radius
    }
}

/// Cells of their own size: `collide` keeps two cells apart by the sum of their radii. A
/// cell without a radius of its own follows `cellSize` (half of it), so a layout of default
/// cells is exactly the layout before radii.
extension Simulation {
    /// The largest radius a cell may have; and the smallest.
    public static let radiusRange: ClosedRange<Double> = 1...200

    /// Adds cells where the seeds say, or spawned as `spawn` says when a seed has no
    /// position, with their radii; all or none: a non-finite position or a radius outside
    /// `radiusRange` throws and adds nothing. Returns the ids, ascending.
    @discardableResult
    public func add(_ seeds: [CellSeed], spawn: Spawn = .random) throws(LayoutError) -> [CellID] {
        for seed in seeds {
            guard (seed.x == nil) == (seed.y == nil), seed.x?.isFinite ?? true, seed.y?.isFinite ?? true else {
                throw .invalidPosition
            }
            if let radius = seed.radius, !Self.radiusRange.contains(radius) { throw .invalidRadius(radius) }
        }
        guard !seeds.isEmpty else { return [] }
        var spawned = spawnPositions(count: seeds.lazy.filter { $0.x == nil }.count, spawn: spawn).makeIterator()
        let placed = seeds.map { seed in
            if seed.x != nil { return seed }
            let point = spawned.next()!
            return CellSeed(x: point.x, y: point.y, radius: seed.radius)
        }
        return append(placed)
    }

    /// The cell's own radius; nil when it has the default (or is not a cell).
    public func radius(of id: CellID) -> Double? {
        guard let i = index[id], radii[i] > 0 else { return nil }
        return radii[i]
    }

    /// Gives the cell a radius of its own in `radiusRange`, or the default (nil).
    public func setRadius(_ radius: Double?, of id: CellID) throws(LayoutError) {
        guard let i = index[id] else { throw .unknownCell(id) }
        if let radius, !Self.radiusRange.contains(radius) { throw .invalidRadius(radius) }
        let new = radius ?? 0
        guard radii[i] != new else { return }
        customRadii += (new > 0 ? 1 : 0) - (radii[i] > 0 ? 1 : 0)
        radii[i] = new
        forcesChanged()
    }

    /// Puts the cell at (x, y); a pinned cell stays pinned there.
    public func move(_ id: CellID, x: Double, y: Double) throws(LayoutError) {
        guard let i = index[id] else { throw .unknownCell(id) }
        guard x.isFinite, y.isFinite else { throw .invalidPosition }
        xs[i] = x
        ys[i] = y
        forcesChanged()
    }

    /// Every cell's radius for `Collision`, or empty when all have the default.
    func collisionRadii() -> [Double] {
        guard customRadii > 0 else { return [] }
        let standard = parameters.cellSize / 2
        return radii.map { $0 > 0 ? $0 : standard }
    }
}
