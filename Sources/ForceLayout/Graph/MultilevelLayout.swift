/// A multilevel layout under way (Hu 2005 §4; Walshaw 2003): the graph as it arrived,
/// coarsened level by level (`Coarsening`) down to about `coarsestSize` nodes; the
/// coarsest level laid out from scratch, then each finer level placed from the coarser one
/// (a node starts where its group was, a little apart from its partners) and refined with
/// its own natural length and step. While it runs, every cell of the finest level is shown
/// where its node on the current level is (`positionsOfCells`), so viewers watch the drawing
/// unfold from coarse to fine. It ends when level 1 has converged: the cells then take
/// their places (`finish`) and the layout refines them itself. Pure.
struct MultilevelLayout {
    /// A level stops coarsening at this many nodes in components of two or more. Few: the
    /// coarsest level is laid out from scratch, and a small graph drawn from scratch can
    /// fold (a path of 30 cells from random places ends as a tangle); coarse levels cost little.
    static let coarsestSize = 8
    /// Coarsening stops when a level keeps more than this share of the nodes of the last.
    static let leastShrink = 0.8
    /// A level is done when no node moves this share of its natural length in a step.
    static let tolerance = 0.02
    static let maxIterations = 400
    /// A finer level starts with a step of this share of its natural length (0.25 saved 5-10%
    /// of the steps but left a ring of 40 twisted into a figure eight: too little to undo a
    /// twist the coarser level left).
    static let fineStart = 0.5

    /// Level 0 is the cells (membership order, at the plan's making), the last the coarsest.
    let levels: [WeightedGraph]
    /// `groupOf[l][i]`: the node of level l + 1 that node i of level l belongs to.
    let groupOf: [[Int32]]
    let components: [Components]
    /// The natural length of each level: the edge length on level 0, growing as the nodes
    /// stand for more cells (by the square root of the shrink, so areas match).
    let lengths: [Double]
    /// Multiplies the links' attraction on every level (`Parameters.linkStrength`).
    let attraction: Double
    /// The level being laid out (at least 1 while the plan runs).
    private(set) var level: Int
    /// The positions of the nodes of `level`.
    private(set) var xs: [Double]
    private(set) var ys: [Double]
    private(set) var step: StepLength
    private(set) var iterations = 0
    /// Each cell's node on `level`.
    private(set) var nodeOfCell: [Int32]

    var cellCount: Int { levels[0].count }
    var levelSize: Int { xs.count }

    /// The plan for `graph` (the cells and their links) with edge length `k`, starting from
    /// random positions (seeded), or from the centroids of `start` (the cells' positions)
    /// when given; nil when the graph is too small to coarsen.
    init?(graph: WeightedGraph, components cellComponents: Components, k: Double, attraction: Double = 1,
          start: (xs: [Double], ys: [Double])?, rng: inout SeededRandom) {
        let (levels, groupOf, comps, lengths) = Self.coarsen(graph, components: cellComponents, k: k, rng: &rng)
        guard levels.count > 1 else { return nil }
        self.levels = levels
        self.groupOf = groupOf
        self.components = comps
        self.lengths = lengths
        self.attraction = attraction
        level = levels.count - 1
        var map = Array(0..<Int32(graph.count))
        for l in 0..<level { map = map.map { groupOf[l][Int($0)] } }
        nodeOfCell = map
        let coarsest = levels[level], length = lengths[level]
        let side = Double(coarsest.count).squareRoot() * length
        let placed = Self.startingPositions(coarsest, components: comps[level], length: length, side: side,
                                            nodeOfCell: map, start: start, rng: &rng)
        xs = placed.xs
        ys = placed.ys
        // A start from random places needs long steps to untangle; one from distances or
        // from a drawing only refines.
        step = StepLength(start == nil && !placed.fromDistances ? side / 4 : length, cooling: StepLength.coarseCooling)
        ComponentPacking.pack(xs: &xs, ys: &ys, components: comps[level], gap: length)
    }

    /// The levels of `graph` (level 0 itself), each coarsened from the last (`Coarsening`)
    /// until a level has few linked nodes or keeps too many of the last's; the groups, the
    /// components and the natural length of each.
    private static func coarsen(_ graph: WeightedGraph, components cellComponents: Components, k: Double,
                                rng: inout SeededRandom)
        -> (levels: [WeightedGraph], groupOf: [[Int32]], components: [Components], lengths: [Double]) {
        var levels = [graph], groupOf: [[Int32]] = [], comps = [cellComponents], lengths = [k]
        while levels.count < 40 {
            let fine = levels.last!, fineComponents = comps.last!
            let linked = Self.linkedNodes(fineComponents)
            guard linked > Self.coarsestSize else { break }
            let step = Coarsening(fine, rng: &rng)
            let coarseComponents = fineComponents.coarsened(by: step.groupOf, coarseCount: step.coarse.count)
            let coarseLinked = Self.linkedNodes(coarseComponents)
            guard Double(coarseLinked) <= Self.leastShrink * Double(linked) else { break }
            levels.append(step.coarse)
            groupOf.append(step.groupOf)
            comps.append(coarseComponents)
            lengths.append(lengths.last! * (Double(linked) / Double(Swift.max(1, coarseLinked))).squareRoot())
        }
        return (levels, groupOf, comps, lengths)
    }

    /// Where the nodes of the coarsest level start: each at the centroid of its cells in
    /// `start` (the drawing keeps its shape), or else at random in a square `side` wide, then
    /// placed from the graph's distances (`ClassicalScaling`); and whether that placed them all.
    private static func startingPositions(_ coarsest: WeightedGraph, components: Components, length: Double, side: Double,
                                          nodeOfCell map: [Int32], start: (xs: [Double], ys: [Double])?,
                                          rng: inout SeededRandom) -> (xs: [Double], ys: [Double], fromDistances: Bool) {
        var xs: [Double] = [], ys: [Double] = []
        var fromDistances = false
        if let start {
            // Each node at the centroid of its cells: the drawing keeps its shape.
            var sx = [Double](repeating: 0, count: coarsest.count), sy = sx, count = sx
            for (cell, node) in map.enumerated() {
                sx[Int(node)] += start.xs[cell]; sy[Int(node)] += start.ys[cell]; count[Int(node)] += 1
            }
            xs = zip(sx, count).map { $0 / $1 }
            ys = zip(sy, count).map { $0 / $1 }
        } else {
            for _ in 0..<coarsest.count {
                xs.append((Double.random(in: -0.5...0.5, using: &rng)) * side)
                ys.append((Double.random(in: -0.5...0.5, using: &rng)) * side)
            }
            fromDistances = ClassicalScaling.place(graph: coarsest, components: components, length: length,
                                                   xs: &xs, ys: &ys)
        }
        return (xs, ys, fromDistances)
    }

    /// Brings each component of the current level to the size its forces balance at.
    private mutating func rescale(tick: Int, tree: inout QuadTree, scratch: inout GraphScratch) {
        SpringElectrical(k: lengths[level], theta: 0.9, tick: tick, weighted: false, attraction: attraction)
            .rescale(graph: levels[level], components: components[level], xs: &xs, ys: &ys, ids: nil, fixed: nil,
                     tree: &tree, fx: &scratch.fx, fy: &scratch.fy)
    }

    /// Nodes in components of two or more (a lone node never coarsens).
    private static func linkedNodes(_ components: Components) -> Int {
        (0..<components.count).reduce(0) { $0 + (components.size(of: $1) > 1 ? components.size(of: $1) : 0) }
    }

    /// One step of the current level. Returns whether the plan is done (level 1 converged:
    /// call `finish`).
    mutating func advance(theta: Double, tick: Int, tree: inout QuadTree, scratch: inout GraphScratch) -> Bool {
        let forces = SpringElectrical(k: lengths[level], theta: theta, tick: tick, weighted: false, attraction: attraction)
        forces.forces(graph: levels[level], components: components[level], xs: xs, ys: ys, ids: nil, tree: &tree,
                      parallel: nil, fx: &scratch.fx, fy: &scratch.fy, stiffness: &scratch.stiffness)
        let (fx, fy) = (scratch.fx, scratch.fy)
        iterations += 1
        if iterations % SpringElectrical.balanceEvery == 0 {
            forces.balance(graph: levels[level], components: components[level], xs: &xs, ys: &ys, fixed: nil,
                           fx: fx, fy: fy, pullIncluded: true)
            scratch.vx = []
            scratch.vy = []
            return false
        }
        let totals = GraphMotion(step: step.length).move(xs: &xs, ys: &ys, fx: fx, fy: fy, scratch: &scratch,
                                                         pinned: nil, parallel: nil)
        step.update(energy: totals.energy)
        guard totals.maxMove < Self.tolerance * lengths[level] || iterations >= Self.maxIterations else { return false }
        scratch.vx = []
        scratch.vy = []
        ComponentPacking.pack(xs: &xs, ys: &ys, components: components[level], gap: lengths[level])
        guard level > 1 else { return true }
        prolong(rng: &scratch.rng)
        rescale(tick: tick, tree: &tree, scratch: &scratch)
        ComponentPacking.pack(xs: &xs, ys: &ys, components: components[level], gap: lengths[level])
        return false
    }

    /// Places the nodes of the next finer level where their groups are, spread a little.
    private mutating func prolong(rng: inout SeededRandom) {
        let fine = level - 1
        let map = groupOf[fine]
        let spread = 0.1 * lengths[fine]
        var fx = [Double](repeating: 0, count: map.count), fy = fx
        for (node, group) in map.enumerated() {
            fx[node] = xs[Int(group)] + Double.random(in: -spread...spread, using: &rng)
            fy[node] = ys[Int(group)] + Double.random(in: -spread...spread, using: &rng)
        }
        xs = fx
        ys = fy
        level = fine
        nodeOfCell = groupOf[0..<fine].reduce(Array(0..<Int32(cellCount))) { map, step in map.map { step[Int($0)] } }
        step = StepLength(Self.fineStart * lengths[fine], cooling: StepLength.coarseCooling)
        iterations = 0
    }

    /// Where each cell of level 0 is shown now: at its node on the current level.
    @inline(__always)
    func position(ofCell cell: Int) -> (x: Double, y: Double) {
        let node = Int(nodeOfCell[cell])
        return (xs[node], ys[node])
    }

    /// The cells' places when level 1 is done: each where its group is, spread a little.
    func finish(rng: inout SeededRandom) -> (xs: [Double], ys: [Double]) {
        let spread = 0.1 * lengths[0]
        var cx = [Double](repeating: 0, count: cellCount), cy = cx
        for cell in 0..<cellCount {
            let p = position(ofCell: cell)
            cx[cell] = p.x + Double.random(in: -spread...spread, using: &rng)
            cy[cell] = p.y + Double.random(in: -spread...spread, using: &rng)
        }
        return (cx, cy)
    }
}

/// What the graph model's steps reuse: force buffers, and the random source of prolongation.
struct GraphScratch {
    var fx: [Double] = []
    var fy: [Double] = []
    var stiffness: [Double] = []
    /// Each node's last move (`GraphMotion`'s momentum), on the level being laid out.
    var vx: [Double] = []
    var vy: [Double] = []
    var rng: SeededRandom
}
