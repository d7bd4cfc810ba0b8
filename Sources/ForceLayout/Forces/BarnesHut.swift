import Dispatch
import Synchronization

/// The Coulomb repulsion approximated with a Barnes-Hut quadtree. A node of width `w`
/// whose center of mass lies at distance `d` from a group of cells, with `w / d < theta`,
/// acts on them as its multipole expansion (the total charge at the center of mass plus
/// the quadrupole term, which cuts the error several times over for a few operations);
/// nearer nodes are opened, and leaves are summed exactly with the same clamping and
/// wiggle as the exact sum. The tree is walked once per leaf, not once per cell: the
/// leaf's cells share one interaction list, measured against their bounding box (so the
/// criterion holds for each of them), which amortises the walk over the group.
struct BarnesHut {
    /// Leaves per parallel work item.
    static let leavesPerChunk = 64
    static let parallelThreshold = 512

    let chargeCubed: Double
    let theta: Double
    let tick: Int

    init(charge: Double, theta: Double, tick: Int) {
        chargeCubed = charge * charge * charge
        self.theta = theta
        self.tick = tick
    }

    /// Fills `fx`, `fy` with the repulsion on every cell (zero for pinned cells).
    func forces(tree: QuadTree, xs: [Double], ys: [Double], ids: [CellID], pinned: [Bool],
                parallel: Bool? = nil, fx: inout [Double], fy: inout [Double]) {
        let n = xs.count
        ForceBuffers.zero(&fx, &fy, count: n)
        guard n > 1, chargeCubed > 0 else { return }

        // Positions in tree order, so a leaf's cells are contiguous in memory.
        let order = tree.order
        let sortedX = order.map { xs[Int($0)] }
        let sortedY = order.map { ys[Int($0)] }
        let leafCount = tree.leaves.count
        let chunks = (leafCount + Self.leavesPerChunk - 1) / Self.leavesPerChunk
        let out = Mutex(ForceBuffers(x: fx, y: fy))
        fx = []
        fy = []
        let work: @Sendable (Int) -> Void = { chunk in
            let leaves = (chunk * Self.leavesPerChunk)..<Swift.min((chunk + 1) * Self.leavesPerChunk, leafCount)
            let first = Int(tree.leafStart[leaves.lowerBound])
            let end = leaves.upperBound < leafCount ? Int(tree.leafStart[leaves.upperBound]) : n
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * (end - first)) { local in
                accumulate(leaves, tree, sortedX, sortedY, ids, pinned, first, local)
                out.withLock { buffers in
                    for k in first..<end {
                        let cell = Int(order[k])
                        buffers.x[cell] = local[2 * (k - first)]
                        buffers.y[cell] = local[2 * (k - first) + 1]
                    }
                }
            }
        }
        if parallel ?? (n >= Self.parallelThreshold) {
            DispatchQueue.concurrentPerform(iterations: chunks, execute: work)
        } else {
            for chunk in 0..<chunks { work(chunk) }
        }
        let result = out.withLock { $0 }
        fx = result.x
        fy = result.y
    }

    /// Forces on the cells of `leafRange`, written as x, y pairs from tree position `first`.
    private func accumulate(_ leafRange: Range<Int>, _ tree: QuadTree, _ sortedX: [Double], _ sortedY: [Double],
                            _ ids: [CellID], _ pinned: [Bool], _ first: Int,
                            _ out: UnsafeMutableBufferPointer<Double>) {
        let lists = InteractionLists()
        tree.packed.withUnsafeBufferPointer { nodes in
        tree.leaves.withUnsafeBufferPointer { leaves in
        tree.order.withUnsafeBufferPointer { order in
        sortedX.withUnsafeBufferPointer { xs in
        sortedY.withUnsafeBufferPointer { ys in
        ids.withUnsafeBufferPointer { ids in
        pinned.withUnsafeBufferPointer { pinned in
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * QuadTree.maxDepth + 8) { stack in
            for leafSlot in leafRange {
                let leaf = Int(leaves[leafSlot])
                let group = nodes[leaf]
                let start = Int(group.start), end = start + Int(group.count)
                var minX = xs[start], maxX = minX, minY = ys[start], maxY = minY
                for k in start..<end {
                    minX = Swift.min(minX, xs[k]); maxX = Swift.max(maxX, xs[k])
                    minY = Swift.min(minY, ys[k]); maxY = Swift.max(maxY, ys[k])
                }
                lists.reset()
                interactions(of: group, box: (minX, maxX, minY, maxY), nodes, xs, ys, stack, lists)
                for k in start..<end {
                    let slot = 2 * (k - first)
                    let i = Int(order[k])
                    guard !pinned[i] else { out[slot] = 0; out[slot + 1] = 0; continue }
                    let f = force(on: k, id: ids[i], xs[k], ys[k], ids, order, lists)
                    out[slot] = f.x
                    out[slot + 1] = f.y
                }
            }
        }
        }}}}}}}
    }

    /// Fills `lists` for one leaf: the nodes far enough from its cells' box to act through
    /// their expansion, and the cells of the leaves (itself included) to sum exactly.
    private func interactions(of group: PackedNode, box: (Double, Double, Double, Double),
                              _ nodes: UnsafeBufferPointer<PackedNode>, _ xs: UnsafeBufferPointer<Double>,
                              _ ys: UnsafeBufferPointer<Double>, _ stack: UnsafeMutableBufferPointer<Int32>,
                              _ lists: InteractionLists) {
        let theta2 = theta * theta
        stack[0] = 0
        var top = 1
        while top > 0 {
            top -= 1
            let node = nodes[Int(stack[top])]
            if node.firstChild < 0 {
                let start = Int(node.start)
                for j in start..<(start + Int(node.count)) { lists.addNear(x: xs[j], y: ys[j], slot: Int32(j)) }
                continue
            }
            // An ancestor of this leaf holds its cells: never use its expansion.
            let ancestor = Swift.abs(group.centerX - node.centerX) <= node.half
                && Swift.abs(group.centerY - node.centerY) <= node.half
            let dx = Swift.max(box.0 - node.massX, 0, node.massX - box.1)
            let dy = Swift.max(box.2 - node.massY, 0, node.massY - box.3)
            let width = 2 * node.half
            if !ancestor && width * width < theta2 * (dx * dx + dy * dy) {
                lists.addFar(node)
            } else {
                let child = Int(node.firstChild)
                for c in child..<(child + 4) where nodes[c].mass > 0 {
                    stack[top] = Int32(c)
                    top += 1
                }
            }
        }
        lists.pad()
    }

    /// The repulsion on the cell at tree position `k`, at (xi, yi). Both loops stream
    /// contiguous lists two interactions at a time in SIMD2 lanes (SSE2, on every x86-64),
    /// falling back to the scalar path for the rare pair that needs care (the cell itself,
    /// coincident cells).
    @inline(__always)
    private func force(on k: Int, id: CellID, _ xi: Double, _ yi: Double, _ ids: UnsafeBufferPointer<CellID>,
                       _ order: UnsafeBufferPointer<Int32>, _ lists: InteractionLists) -> (x: Double, y: Double) {
        let xv = SIMD2(repeating: xi), yv = SIMD2(repeating: yi)
        var (axv, ayv) = farForce(xv, yv, lists)
        let (ax, ay) = addNearForce(on: k, id: id, xv, yv, ids, order, lists, &axv, &ayv)
        return (ax + axv.sum(), ay + ayv.sum())
    }

    /// From the far nodes: F = M r/r³ − Q r/r⁵ + 5/2 (rᵀQr) r/r⁷, r from the center of mass.
    /// The lists are padded to an even length with massless nodes far away.
    @inline(__always)
    private func farForce(_ xv: SIMD2<Double>, _ yv: SIMD2<Double>, _ lists: InteractionLists)
        -> (x: SIMD2<Double>, y: SIMD2<Double>) {
        let minD2 = SIMD2(repeating: Coulomb.minDistance * Coulomb.minDistance)
        var axv = SIMD2<Double>.zero, ayv = SIMD2<Double>.zero
        var f = 0
        while f < lists.farCount {
            let dx = xv - lists.pair(lists.farX, f), dy = yv - lists.pair(lists.farY, f)
            let d2 = pointwiseMax(dx * dx + dy * dy, minD2)
            let r = d2.squareRoot()
            let inv2 = 1 / d2
            let inv3 = inv2 / r
            let inv5 = inv3 * inv2
            let qxx = lists.pair(lists.farQxx, f), qyy = lists.pair(lists.farQyy, f), qxy = lists.pair(lists.farQxy, f)
            let qx = qxx * dx + qxy * dy
            let qy = qxy * dx + qyy * dy
            let radial = lists.pair(lists.farMass, f) * inv3 + 2.5 * (dx * qx + dy * qy) * inv5 * inv2
            axv += dx * radial - qx * inv5
            ayv += dy * radial - qy * inv5
            f += 2
        }
        return (axv * chargeCubed, ayv * chargeCubed)
    }

    /// Adds the near cells' pushes to `axv`, `ayv` lane by lane; the rare pair that needs care
    /// (the cell itself, coincident cells) takes the scalar path, whose sum it returns.
    @inline(__always)
    private func addNearForce(on k: Int, id: CellID, _ xv: SIMD2<Double>, _ yv: SIMD2<Double>,
                              _ ids: UnsafeBufferPointer<CellID>, _ order: UnsafeBufferPointer<Int32>,
                              _ lists: InteractionLists, _ axv: inout SIMD2<Double>, _ ayv: inout SIMD2<Double>)
        -> (x: Double, y: Double) {
        let c = chargeCubed
        let minD = SIMD2(repeating: Coulomb.minDistance)
        let eps2 = Wiggle.epsilon * Wiggle.epsilon
        var ax = 0.0, ay = 0.0
        var j = 0
        while j < lists.nearCount {
            let dx = xv - lists.pair(lists.nearX, j), dy = yv - lists.pair(lists.nearY, j)
            let d2 = dx * dx + dy * dy
            if any(d2 .< eps2) || any(d2 .> 1e300) {
                for lane in 0..<2 where lists.nearSlot[j + lane] >= 0 {
                    let p = nearForce(k, Int(lists.nearSlot[j + lane]), id, dx[lane], dy[lane], ids, order)
                    ax += p.x
                    ay += p.y
                }
            } else {
                let r = d2.squareRoot()
                let rc = pointwiseMax(r, minD)
                let s = c / (rc * rc * r)
                axv += dx * s
                ayv += dy * s
            }
            j += 2
        }
        return (ax, ay)
    }

    /// One exact pair given its offset (dx, dy); nothing from the cell itself.
    @inline(__always)
    private func nearForce(_ k: Int, _ j: Int, _ id: CellID, _ dx: Double, _ dy: Double,
                           _ ids: UnsafeBufferPointer<CellID>, _ order: UnsafeBufferPointer<Int32>) -> (x: Double, y: Double) {
        guard j != k else { return (0, 0) }
        return PairForce.exact(dx: dx, dy: dy, chargeCubed: chargeCubed, id: id, other: ids[Int(order[j])], tick: tick)
    }
}
