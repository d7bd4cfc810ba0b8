/// A repulsion (`Law`: the article's Coulomb, or the graph model's) approximated with a
/// Barnes-Hut quadtree. A node of width `w` whose center of mass lies at distance `d` from
/// a group of cells, with `w / d < theta`,
/// acts on them as its multipole expansion (the total charge at the center of mass plus
/// the quadrupole term, which cuts the error several times over for a few operations);
/// nearer nodes are opened, and leaves are summed exactly with the same clamping and
/// wiggle as the exact sum. The tree is walked once per leaf, not once per cell: the
/// leaf's cells share one interaction list, measured against their bounding box (so the
/// criterion holds for each of them), which amortises the walk over the group
/// (`TreeWalk.swift`). Groups are the largest nodes of at most `groupCapacity` cells. The lists are evaluated four entries at a time in single precision
/// (`FarField.swift`, `NearField.swift`), every cell's terms in the same order whatever
/// thread computes it: serial and parallel runs agree bit for bit.
struct BarnesHut<Law: RepulsionLaw> {
    /// Groups per parallel work item.
    static var groupsPerChunk: Int { 16 }
    /// The most cells in a group that shares one walk and one interaction list.
    static var groupCapacity: Int { 64 }
    static var parallelThreshold: Int { 512 }
    /// Squared distances at or beyond this leave single precision: such pairs are summed in double.
    static var singleRange: Float { 1e12 }

    /// What the law's push between unit charges is multiplied by (charge³ for the article's model).
    let strength: Double
    let theta: Double
    let tick: Int

    init(strength: Double, theta: Double, tick: Int) {
        self.strength = strength
        self.theta = theta
        self.tick = tick
    }

    /// Fills `fx`, `fy` with the repulsion on every cell (zero for pinned cells); `tree` must
    /// have been built over the cells' current positions.
    func forces(tree: QuadTree, ids: [CellID], pinned: [Bool], parallel: Bool? = nil,
                fx: inout [Double], fy: inout [Double]) {
        let n = tree.order.count
        ForceBuffers.zero(&fx, &fy, count: n)
        guard n > 1, strength > 0 else { return }
        let groups = Self.groups(tree)
        fx.withUnsafeMutableBufferPointer { fx in
            fy.withUnsafeMutableBufferPointer { fy in
                let outX = DisjointBuffer(fx), outY = DisjointBuffer(fy)
                // Each chunk of groups writes the forces of its own groups' cells, and no others.
                forEachChunk(of: groups.count, size: Self.groupsPerChunk,
                             parallel: parallel ?? (n >= Self.parallelThreshold)) { _, range in
                    accumulate(groups[range], tree, ids, pinned, outX, outY)
                }
            }
        }
    }

    /// Forces on the cells of `groups`, written to their cells' slots.
    private func accumulate(_ groups: ArraySlice<Int32>, _ tree: QuadTree, _ ids: [CellID], _ pinned: [Bool],
                            _ outX: DisjointBuffer<Double>, _ outY: DisjointBuffer<Double>) {
        var lists = InteractionLists()
        TreeView.with(tree, ids) { view in
        pinned.withUnsafeBufferPointer { pinned in
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * QuadTree.maxDepth + 8) { stack in
            for index in groups {
                let group = view.nodes[Int(index)]
                interactions(of: group, view, stack, &lists)
                for k in Int(group.start)..<Int(group.start + group.count) {
                    let i = Int(view.order[k])
                    guard !pinned[i] else { outX[i] = 0; outY[i] = 0; continue }
                    let far = farForce(on: k, view, lists)
                    let near = nearForce(on: k, view, lists)
                    outX[i] = strength * (far.x + near.x)
                    outY[i] = strength * (far.y + near.y)
                }
            }
        }}}
    }
}

extension BarnesHut where Law == InverseSquare {
    /// The article's repulsion, |F| = charge³ / r².
    init(charge: Double, theta: Double, tick: Int) {
        self.init(strength: charge * charge * charge, theta: theta, tick: tick)
    }
}

extension BarnesHut {
    /// The largest nodes of at most `groupCapacity` cells, none empty, in tree order.
    static func groups(_ tree: QuadTree) -> [Int32] {
        var groups: [Int32] = []
        var stack: [Int32] = [0]
        while let index = stack.popLast() {
            let node = tree.nodes[Int(index)]
            if node.count <= groupCapacity || node.isLeaf {
                if node.count > 0 { groups.append(index) }
            } else {
                for c in stride(from: node.firstChild + 3, through: node.firstChild, by: -1) { stack.append(c) }
            }
        }
        return groups
    }
}

/// The built tree as buffers, for the force loops: nodes, cells in tree order, their ids.
struct TreeView {
    let nodes: UnsafeBufferPointer<PackedNode>
    let order: UnsafeBufferPointer<Int32>
    let xs: UnsafeBufferPointer<Double>
    let ys: UnsafeBufferPointer<Double>
    /// By cell index (not tree order).
    let ids: UnsafeBufferPointer<CellID>

    static func with<R>(_ tree: QuadTree, _ ids: [CellID], _ body: (TreeView) -> R) -> R {
        tree.nodes.withUnsafeBufferPointer { nodes in
        tree.order.withUnsafeBufferPointer { order in
        tree.sortedX.withUnsafeBufferPointer { xs in
        tree.sortedY.withUnsafeBufferPointer { ys in
        ids.withUnsafeBufferPointer { ids in
            body(TreeView(nodes: nodes, order: order, xs: xs, ys: ys, ids: ids))
        }}}}}
    }
}
