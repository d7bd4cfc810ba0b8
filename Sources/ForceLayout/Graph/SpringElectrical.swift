import Foundation

/// sfdp's spring-electrical model (Hu 2005; Fruchterman-Reingold's family): along a link of
/// weight w, an attraction of w·d²/K; between every two nodes of a component, a repulsion
/// of C·K^(7/2)/d^(5/2), Barnes-Hut for components of more than `exactLimit` nodes (the
/// engine's quadtree with the `InverseFiveHalves` law). K is the natural edge length
/// (`Parameters.edgeLength`, scaled up on coarse levels); two linked nodes alone rest
/// C^(2/9)·K apart. The repulsion's power is Hu's p = 5/2 where sfdp's default is 2 (FR's
/// is 1): the higher the power, the less the far repulsion of a large drawing squeezes its
/// rim against its middle (`InverseFiveHalves`). Nodes of different components do not
/// interact: they are packed side by side instead (`ComponentPacking`).
///
/// Besides the forces, each node's stiffness along its links, h = 2·Σ w·d/K (the second
/// derivative of its links' energy), which `GraphMotion` divides the force by: a Jacobi
/// (diagonal Newton) step, so a node in balance stays put while the step length cools
/// instead of rattling by the full step, as Hu's normalised steps would.
struct SpringElectrical {
    /// C, sfdp's relative strength of the repulsion.
    static let repulsion = 0.2
    /// Components up to this size are summed exactly (cheaper than a tree).
    static let exactLimit = 48
    static let chunkSize = 2048
    static let parallelThreshold = 8192

    let k: Double
    let theta: Double
    let tick: Int
    /// Whether links pull by their weight (the finest level) or all alike (coarse levels,
    /// as sfdp's unweighted coarsening).
    let weighted: Bool
    /// Multiplies every link's attraction (`Parameters.linkStrength`): two linked nodes alone
    /// rest (C/s)^(2/9)·K apart.
    var attraction = 1.0

    /// Fills `fx`, `fy` and `stiffness` (resized to the node count). `ids` names the nodes
    /// for the wiggle of coincident ones (nil: index + 1).
    func forces(graph: WeightedGraph, components: Components, xs: [Double], ys: [Double], ids: [CellID]?,
                tree: inout QuadTree, parallel: Bool?,
                fx: inout [Double], fy: inout [Double], stiffness: inout [Double]) {
        let n = xs.count
        ForceBuffers.zero(&fx, &fy, count: n)
        stiffness.removeAll(keepingCapacity: true)
        stiffness.append(contentsOf: repeatElement(0, count: n))
        repel(components: components, xs: xs, ys: ys, ids: ids, tree: &tree, parallel: parallel, fx: &fx, fy: &fy)
        attract(graph: graph, xs: xs, ys: ys, parallel: parallel ?? (n >= Self.parallelThreshold),
                fx: &fx, fy: &fy, stiffness: &stiffness)
    }

    /// C·K^(7/2): the push is C·K^(7/2)/d^(5/2).
    private var strength: Double { Self.repulsion * k * k * k * k.squareRoot() }

    /// Every this many steps, a layout maps its drawing to balance (`balance`) instead of
    /// moving its nodes: steps of single nodes stretch or shrink a whole drawing only slowly
    /// (a 100×100 grid stopped 9% longer one way than the other after 800 steps; with a map
    /// every 10 steps, 0.1% after 500: both under a repulsion of power 2).
    static let balanceEvery = 10

    /// How many times `rescale` weighs the forces and maps the drawing: each map is a model
    /// of how the forces change, so a second and third pass take up what the first missed.
    static let rescalePasses = 3

    /// Brings each component, about its centroid, to the size and proportions where its
    /// links' pull and its repulsion balance as a whole (`Virial`). A level placed from a
    /// coarser one is about the right shape but not the right size (the repulsion of many
    /// nodes adds up beyond the coarse level's) nor the right proportions, and growing or
    /// stretching a drawing by its forces alone is the slowest thing a force layout does;
    /// this does it at once. Components with a node in `fixed` stay.
    func rescale(graph: WeightedGraph, components: Components, xs: inout [Double], ys: inout [Double],
                 ids: [CellID]?, fixed: [Bool]?, tree: inout QuadTree, fx: inout [Double], fy: inout [Double]) {
        let n = xs.count
        for _ in 0..<Self.rescalePasses {
            ForceBuffers.zero(&fx, &fy, count: n)
            repel(components: components, xs: xs, ys: ys, ids: ids, tree: &tree, parallel: nil, fx: &fx, fy: &fy)
            balance(graph: graph, components: components, xs: &xs, ys: &ys, fixed: fixed, fx: fx, fy: fy,
                    pullIncluded: false)
        }
    }

    /// Maps each component without a node in `fixed` about its centroid to where its virials
    /// balance (`Virial`), from the forces `fx`, `fy` at `xs`, `ys`: the repulsion alone, or
    /// the whole force with the links' pull (`pullIncluded`; Σ (x − c) ⊗ F_pull = −S).
    /// Returns the longest move a node made.
    @discardableResult
    func balance(graph: WeightedGraph, components: Components, xs: inout [Double], ys: inout [Double],
                 fixed: [Bool]?, fx: [Double], fy: [Double], pullIncluded: Bool) -> Double {
        var longest = 0.0
        for c in 0..<components.count where components.size(of: c) > 1 {
            let members = components.nodes(of: c)
            if let fixed, members.contains(where: { fixed[Int($0)] }) { continue }
            var cx = 0.0, cy = 0.0
            for i in members { cx += xs[Int(i)]; cy += ys[Int(i)] }
            cx /= Double(members.count); cy /= Double(members.count)
            var virial = Virial(power: InverseFiveHalves.power)
            for i in members {
                let i = Int(i)
                virial.addRepulsion(dx: xs[i] - cx, dy: ys[i] - cy, fx: fx[i], fy: fy[i])
                for e in graph.edges(of: i) where Int(graph.neighbours[e]) > i {
                    let j = Int(graph.neighbours[e])
                    virial.addLink(dx: xs[j] - xs[i], dy: ys[j] - ys[i], w: (weighted ? graph.weights[e] : 1) * attraction, k: k,
                                   pullIncluded: pullIncluded)
                }
            }
            guard let (a, b, d) = virial.map() else { continue }
            for i in members {
                let x = xs[Int(i)] - cx, y = ys[Int(i)] - cy
                let nx = a * x + b * y, ny = b * x + d * y
                longest = Swift.max(longest, ((nx - x) * (nx - x) + (ny - y) * (ny - y)).squareRoot())
                xs[Int(i)] = cx + nx
                ys[Int(i)] = cy + ny
            }
        }
        return longest
    }

    private func repel(components: Components, xs: [Double], ys: [Double], ids: [CellID]?,
                       tree: inout QuadTree, parallel: Bool?, fx: inout [Double], fy: inout [Double]) {
        var px: [Double] = [], py: [Double] = [], pids: [CellID] = [], gx: [Double] = [], gy: [Double] = []
        for c in 0..<components.count {
            let members = components.nodes(of: c)
            guard members.count > 1 else { continue }
            if members.count <= Self.exactLimit {
                repelExactly(members, xs: xs, ys: ys, ids: ids, fx: &fx, fy: &fy)
                continue
            }
            let free = [Bool](repeating: false, count: members.count)
            let barnesHut = BarnesHut<InverseFiveHalves>(strength: strength, theta: Swift.max(theta, 0.3), tick: tick)
            if members.count == xs.count, let ids {
                // One piece holds every cell: its forces straight into fx, fy (zero so far),
                // with no copies of the positions in and of the forces out.
                xs.withUnsafeBufferPointer { bx in ys.withUnsafeBufferPointer { by in tree.build(xs: bx, ys: by, parallel: parallel) } }
                barnesHut.forces(tree: tree, ids: ids, pinned: free, parallel: parallel, fx: &fx, fy: &fy)
                continue
            }
            px.removeAll(keepingCapacity: true); py.removeAll(keepingCapacity: true); pids.removeAll(keepingCapacity: true)
            for i in members {
                px.append(xs[Int(i)]); py.append(ys[Int(i)]); pids.append(ids?[Int(i)] ?? Int(i) + 1)
            }
            px.withUnsafeBufferPointer { bx in py.withUnsafeBufferPointer { by in tree.build(xs: bx, ys: by, parallel: parallel) } }
            barnesHut.forces(tree: tree, ids: pids, pinned: free, parallel: parallel, fx: &gx, fy: &gy)
            for (slot, i) in members.enumerated() {
                fx[Int(i)] += gx[slot]
                fy[Int(i)] += gy[slot]
            }
        }
    }

    /// Adds to `fx`, `fy` the repulsion between every two of `members` (a small component),
    /// pair by pair.
    private func repelExactly(_ members: ArraySlice<Int32>, xs: [Double], ys: [Double], ids: [CellID]?,
                              fx: inout [Double], fy: inout [Double]) {
        for i in members {
            var sx = 0.0, sy = 0.0
            let id = ids?[Int(i)] ?? Int(i) + 1
            for j in members where j != i {
                let f = InverseFiveHalves.pair(dx: xs[Int(i)] - xs[Int(j)], dy: ys[Int(i)] - ys[Int(j)],
                                               strength: strength, id: id, other: ids?[Int(j)] ?? Int(j) + 1,
                                               tick: tick)
                sx += f.x
                sy += f.y
            }
            fx[Int(i)] += sx
            fy[Int(i)] += sy
        }
    }

    private func attract(graph: WeightedGraph, xs: [Double], ys: [Double], parallel: Bool,
                         fx: inout [Double], fy: inout [Double], stiffness: inout [Double]) {
        let n = xs.count
        let inverseK = 1 / k
        let weighted = self.weighted, attraction = self.attraction
        graph.offsets.withUnsafeBufferPointer { offsets in
        graph.neighbours.withUnsafeBufferPointer { neighbours in
        graph.weights.withUnsafeBufferPointer { weights in
        xs.withUnsafeBufferPointer { xs in
        ys.withUnsafeBufferPointer { ys in
        fx.withUnsafeMutableBufferPointer { fx in
        fy.withUnsafeMutableBufferPointer { fy in
        stiffness.withUnsafeMutableBufferPointer { stiffness in
            let offsets = DisjointBuffer(reading: offsets), neighbours = DisjointBuffer(reading: neighbours)
            let weights = DisjointBuffer(reading: weights), xs = DisjointBuffer(reading: xs), ys = DisjointBuffer(reading: ys)
            let outX = DisjointBuffer(fx), outY = DisjointBuffer(fy), outH = DisjointBuffer(stiffness)
            // Each chunk writes its own nodes' slots, and no others.
            forEachChunk(of: n, size: Self.chunkSize, parallel: parallel) { _, nodes in
                for i in nodes {
                    var sx = 0.0, sy = 0.0, h = 0.0
                    let x = xs[i], y = ys[i]
                    for e in Int(offsets[i])..<Int(offsets[i + 1]) {
                        let j = Int(neighbours[e])
                        let dx = xs[j] - x, dy = ys[j] - y
                        let d = (dx * dx + dy * dy).squareRoot()
                        let w = (weighted ? weights[e] : 1) * attraction
                        let f = w * d * inverseK
                        sx += f * dx
                        sy += f * dy
                        h += 2 * f
                    }
                    outX[i] += sx
                    outY[i] += sy
                    outH[i] = h
                }
            }
        }}}}}}}}
    }
}
