/// The graph model's step (`Graph/`): a multilevel layout when a graph arrives, then sfdp's
/// spring-electrical forces on the cells themselves with an adaptive step length, until
/// that step falls under `threshold`.
extension Simulation {
    /// Whether the cells move under the graph model (`Parameters.model`, links or not).
    public var usesGraphModel: Bool { parameters.layoutModel.usesGraphModel(hasLinks: !linkTable.isEmpty) }

    /// Whether a multilevel layout is under way (or about to start): the drawing is unfolding.
    public var isUnfolding: Bool { usesGraphModel && (graph.plan != nil || graph.planWanted) }

    /// The graph model's step length now (what rest is judged by).
    public var graphStepLength: Double? { graph.plan.map { _ in .infinity } ?? graph.step?.length }

    /// The cells and links by index, with each link's weight its strength (1 when unset)
    /// over the mean of them all, so only the ratios of weights matter.
    func finestGraph() -> (graph: WeightedGraph, components: Components) {
        if let finest = graph.finest, finest.version == version, finest.links == linkTable.version {
            return (finest.graph, finest.components)
        }
        let links = linkTable.links
        let total = links.reduce(0.0) { $0 + ($1.strength ?? 1) }
        let scale = total > 0 ? Double(links.count) / total : 1
        let edges = links.map { link in
            (Int32(index[link.source]!), Int32(index[link.target]!), (link.strength ?? 1) * scale)
        }
        let built = WeightedGraph(count: count, edges: edges)
        let components = Components(built)
        graph.finest = (version, linkTable.version, built, components)
        return (built, components)
    }

    func graphAdvance(parallel: Bool?) -> StepReport {
        if graph.planWanted {
            if graph.quiet >= GraphState.quietSteps { startMultilevel() } else { graph.quiet += 1 }
        }
        var report = graph.plan != nil ? unfold() : refine(parallel: parallel)
        // A layout waiting for its batches to stop is not at rest: it must step on to start.
        if graph.planWanted { report.settled = false }
        tick += 1
        lastReport = report
        return report
    }

    /// A graph arrived: lays it out anew, multilevel (small graphs: from a fresh start).
    private func startMultilevel() {
        graph.planWanted = false
        graph.linksAtPlan = linkTable.count
        graph.linksSincePlan = 0
        let (cells, components) = finestGraph()
        let k = parameters.edgeLength
        let start = graph.drawn ? (xs, ys) : nil
        graph.plan = MultilevelLayout(graph: cells, components: components, k: k, attraction: parameters.linkStrength,
                                      start: start, rng: &rng)
        guard graph.plan == nil else { return }
        let side = Double(count).squareRoot() * k
        var fromDistances = false
        if !graph.drawn {
            for i in 0..<count where !pinned[i] {
                xs[i] = Double.random(in: -0.5...0.5, using: &rng) * side
                ys[i] = Double.random(in: -0.5...0.5, using: &rng) * side
            }
            if !pinned.contains(true) {
                fromDistances = ClassicalScaling.place(graph: cells, components: components, length: k, xs: &xs, ys: &ys)
            }
        }
        packComponents()
        graph.packAtRest = true
        graph.step = StepLength(graph.drawn || fromDistances ? k : side / 4, cooling: StepLength.finestCooling)
        graph.drawn = true
    }

    /// Steps of the multilevel layout worth about one step of the cells, then every cell
    /// shown where its node is.
    private func unfold() -> StepReport {
        guard var plan = graph.plan else { return lastReport }
        graph.plan = nil
        let steps = Swift.max(1, Swift.min(64, count / Swift.max(1, plan.levelSize)))
        var done = false
        for _ in 0..<steps where !done {
            done = plan.advance(theta: parameters.theta, tick: tick, tree: &tree, scratch: &graph.scratch)
        }
        var maxMove = 0.0, totalMove = 0.0
        func place(_ i: Int, _ x: Double, _ y: Double) {
            let move = ((x - xs[i]) * (x - xs[i]) + (y - ys[i]) * (y - ys[i])).squareRoot()
            maxMove = Swift.max(maxMove, move)
            totalMove += move
            xs[i] = x
            ys[i] = y
        }
        let cells = Swift.min(plan.cellCount, count)
        if done {
            let places = plan.finish(rng: &graph.scratch.rng)
            for i in 0..<cells where !pinned[i] { place(i, places.xs[i], places.ys[i]) }
            placeUnplaced(from: cells)
            rescaleComponents()
            packComponents()
            graph.packAtRest = true
            graph.step = StepLength(MultilevelLayout.fineStart * parameters.edgeLength, cooling: StepLength.finestCooling)
            graph.drawn = true
        } else {
            for i in 0..<cells where !pinned[i] {
                let p = plan.position(ofCell: i)
                place(i, p.x, p.y)
            }
            graph.plan = plan
        }
        return StepReport(maxMove: maxMove, totalMove: totalMove, settled: false, maxRestStep: .infinity)
    }

    /// One step of the cells under the graph model's forces.
    private func refine(parallel: Bool?) -> StepReport {
        let (cells, components) = finestGraph()
        var step = graph.step ?? StepLength(MultilevelLayout.fineStart * parameters.edgeLength,
                                            cooling: StepLength.finestCooling)
        let model = SpringElectrical(k: parameters.edgeLength, theta: parameters.theta, tick: tick, weighted: true,
                                     attraction: parameters.linkStrength)
        model.forces(graph: cells, components: components, xs: xs, ys: ys, ids: ids, tree: &tree, parallel: parallel,
                     fx: &forceX, fy: &forceY, stiffness: &graph.scratch.stiffness)
        if tick % SpringElectrical.balanceEvery == 0 {
            // This step maps the drawing to balance instead of moving its cells (the forces
            // were weighed where the cells are); momentum starts afresh from the new shape.
            let moved = model.balance(graph: cells, components: components, xs: &xs, ys: &ys, fixed: pinned,
                                      fx: forceX, fy: forceY, pullIncluded: true)
            graph.scratch.vx = []
            graph.scratch.vy = []
            return StepReport(maxMove: moved, totalMove: moved, settled: false, maxRestStep: step.length)
        }
        let totals = GraphMotion(step: step.length).move(xs: &xs, ys: &ys, fx: forceX, fy: forceY,
                                                         scratch: &graph.scratch, pinned: pinned, parallel: parallel)
        step.update(energy: totals.energy)
        graph.step = step
        let settled = totals.movable == 0 || totals.maxMove < parameters.threshold
        if settled && graph.packAtRest {
            graph.packAtRest = false
            packComponents()
        }
        return StepReport(maxMove: totals.maxMove, totalMove: totals.totalMove, settled: settled,
                          maxRestStep: step.length)
    }

    /// Brings each component without a pinned cell to the size its forces balance at.
    func rescaleComponents() {
        let (cells, components) = finestGraph()
        SpringElectrical(k: parameters.edgeLength, theta: parameters.theta, tick: tick, weighted: true,
                                     attraction: parameters.linkStrength)
            .rescale(graph: cells, components: components, xs: &xs, ys: &ys, ids: ids, fixed: pinned, tree: &tree,
                     fx: &forceX, fy: &forceY)
    }

    /// Packs the cells' components side by side, leaving those with a pinned cell in place.
    func packComponents() {
        let (_, components) = finestGraph()
        guard components.count > 1 else { return }
        var fixed = [Bool](repeating: false, count: components.count)
        for i in 0..<count where pinned[i] { fixed[Int(components.of[i])] = true }
        ComponentPacking.pack(xs: &xs, ys: &ys, components: components, gap: parameters.edgeLength, fixed: fixed)
    }

    /// Cells from `first` on (added while a multilevel layout ran) start at the mean of
    /// their linked neighbours that have a place.
    private func placeUnplaced(from first: Int) {
        guard first < count else { return }
        let (cells, _) = finestGraph()
        var pairs: [(Int, Int)] = []
        for i in first..<count where !pinned[i] {
            for e in cells.edges(of: i) { pairs.append((i, Int(cells.neighbours[e]))) }
        }
        placeAtNeighbours(pairs, unplaced: Set(first..<count).filter { !pinned[$0] })
    }

    /// The cells `unplaced` go to the mean of their neighbours in `pairs` (cell, neighbour,
    /// by index) that have a place, a little apart from it, in waves, so that chains of new
    /// cells grow out from the placed ones. Cells with no placed neighbour stay.
    func placeAtNeighbours(_ pairs: [(Int, Int)], unplaced: Set<Int>) {
        var unplaced = unplaced
        let spread = 0.5 * parameters.edgeLength
        while !unplaced.isEmpty {
            var sums: [Int: (x: Double, y: Double, n: Double)] = [:]
            for (cell, neighbour) in pairs where unplaced.contains(cell) && !unplaced.contains(neighbour) {
                var sum = sums[cell] ?? (0, 0, 0)
                sum.x += xs[neighbour]; sum.y += ys[neighbour]; sum.n += 1
                sums[cell] = sum
            }
            guard !sums.isEmpty else { return }
            for cell in sums.keys.sorted() {
                let sum = sums[cell]!
                xs[cell] = sum.x / sum.n + Double.random(in: -spread...spread, using: &rng)
                ys[cell] = sum.y / sum.n + Double.random(in: -spread...spread, using: &rng)
                unplaced.remove(cell)
            }
        }
    }

    /// The graph model's part of a change: the step heats up again, and what the change
    /// undid is let go (a layout under way whose cells moved in the arrays, or whose scale changed).
    func graphChanged(membership: Bool = false, scale: Bool = false) {
        if membership || scale {
            graph.plan = nil
            graph.scratch.vx = []
            graph.scratch.vy = []
        }
        let reheat = GraphState.reheatShare * parameters.edgeLength
        if graph.step == nil { return }
        graph.step!.reheat(to: reheat)
    }
}
