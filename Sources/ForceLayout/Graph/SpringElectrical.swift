import Foundation

/// sfdp's spring-electrical model (Hu 2005; Fruchterman-Reingold's family): along a link of
/// weight w, an attraction of w·d²/K; between every two nodes of a component, a repulsion
/// of C·K³/d² (p = 2, which avoids FR's crowding at the rim), Barnes-Hut for components of
/// more than `exactLimit` nodes (the engine's quadtree, with `charge` = ∛C·K). K is the
/// natural edge length (`Parameters.edgeLength`, scaled up on coarse levels); two linked
/// nodes alone rest C^¼·K apart. Nodes of different components do not interact: they are
/// packed side by side instead (`ComponentPacking`).
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

    private var chargeCubed: Double { Self.repulsion * k * k * k }

    /// Grows or shrinks each component about its centroid to the size where its links'
    /// pull and its repulsion balance as a whole. Under this model a drawing scaled by s has
    /// a repulsion virial Σ F·(x − c) of V/s and a links' virial of −A·s³, so the balance is
    /// at s = (V/A)^¼ (clamped to [¼, 4]). A level placed from a coarser one is about the
    /// right shape but not the right size (the repulsion of many nodes adds up beyond the
    /// coarse level's), and growing a drawing by its forces alone is the slowest thing a
    /// force layout does; this does it at once. Components with a node in `fixed` stay.
    func rescale(graph: WeightedGraph, components: Components, xs: inout [Double], ys: inout [Double],
                 ids: [CellID]?, fixed: [Bool]?, tree: inout QuadTree, fx: inout [Double], fy: inout [Double]) {
        let n = xs.count
        ForceBuffers.zero(&fx, &fy, count: n)
        repel(components: components, xs: xs, ys: ys, ids: ids, tree: &tree, parallel: nil, fx: &fx, fy: &fy)
        for c in 0..<components.count where components.size(of: c) > 1 {
            let members = components.nodes(of: c)
            if let fixed, members.contains(where: { fixed[Int($0)] }) { continue }
            var cx = 0.0, cy = 0.0
            for i in members { cx += xs[Int(i)]; cy += ys[Int(i)] }
            cx /= Double(members.count); cy /= Double(members.count)
            var repulsion = 0.0, pull = 0.0
            for i in members {
                let i = Int(i)
                repulsion += fx[i] * (xs[i] - cx) + fy[i] * (ys[i] - cy)
                for e in graph.edges(of: i) where Int(graph.neighbours[e]) > i {
                    let j = Int(graph.neighbours[e])
                    let dx = xs[j] - xs[i], dy = ys[j] - ys[i]
                    let d = (dx * dx + dy * dy).squareRoot()
                    pull += (weighted ? graph.weights[e] : 1) * d * d * d / k
                }
            }
            guard repulsion > 0, pull > 0 else { continue }
            let scale = Swift.min(4, Swift.max(0.25, Foundation.pow(repulsion / pull, 0.25)))
            for i in members {
                xs[Int(i)] = cx + (xs[Int(i)] - cx) * scale
                ys[Int(i)] = cy + (ys[Int(i)] - cy) * scale
            }
        }
    }

    private func repel(components: Components, xs: [Double], ys: [Double], ids: [CellID]?,
                       tree: inout QuadTree, parallel: Bool?, fx: inout [Double], fy: inout [Double]) {
        var px: [Double] = [], py: [Double] = [], pids: [CellID] = [], gx: [Double] = [], gy: [Double] = []
        for c in 0..<components.count {
            let members = components.nodes(of: c)
            guard members.count > 1 else { continue }
            if members.count <= Self.exactLimit {
                for i in members {
                    var sx = 0.0, sy = 0.0
                    let id = ids?[Int(i)] ?? Int(i) + 1
                    for j in members where j != i {
                        let f = PairForce.exact(dx: xs[Int(i)] - xs[Int(j)], dy: ys[Int(i)] - ys[Int(j)],
                                                chargeCubed: chargeCubed, id: id, other: ids?[Int(j)] ?? Int(j) + 1,
                                                tick: tick)
                        sx += f.x
                        sy += f.y
                    }
                    fx[Int(i)] += sx
                    fy[Int(i)] += sy
                }
                continue
            }
            let free = [Bool](repeating: false, count: members.count)
            let barnesHut = BarnesHut(charge: Self.repulsion.squareRootCube * k, theta: Swift.max(theta, 0.3), tick: tick)
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

    private func attract(graph: WeightedGraph, xs: [Double], ys: [Double], parallel: Bool,
                         fx: inout [Double], fy: inout [Double], stiffness: inout [Double]) {
        let n = xs.count
        let inverseK = 1 / k
        let weighted = self.weighted
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
                        let w = weighted ? weights[e] : 1
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

extension Double {
    /// ∛self.
    var squareRootCube: Double { Foundation.cbrt(self) }
}
