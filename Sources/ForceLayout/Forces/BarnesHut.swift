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
    private struct ForceBuffers: Sendable {
        var x: [Double]
        var y: [Double]
    }

    /// Leaves per parallel work item.
    static let leavesPerChunk = 64
    static let parallelThreshold = 512

    let chargeCubed: Double
    let theta: Double
    let tick: Int

    init(charge: Double, theta: Double, tick: Int) {
        let c = charge * charge * charge
        chargeCubed = c.isFinite && c > 0 ? c : 0
        self.theta = theta.isFinite && theta > 0 ? theta : 0
        self.tick = tick
    }

    /// Fills `fx`, `fy` with the repulsion on every cell (zero for pinned cells).
    func forces(tree: QuadTree, xs: [Double], ys: [Double], ids: [CellID], pinned: [Bool],
                parallel: Bool? = nil, fx: inout [Double], fy: inout [Double]) {
        let n = xs.count
        fx.removeAll(keepingCapacity: true)
        fx.append(contentsOf: repeatElement(0, count: n))
        fy.removeAll(keepingCapacity: true)
        fy.append(contentsOf: repeatElement(0, count: n))
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
        var far: [Int32] = []        // nodes acting through their expansion
        var near: [Int32] = []       // leaves summed cell by cell
        far.reserveCapacity(512)
        near.reserveCapacity(128)
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
                for k in (start + 1)..<Swift.max(end, start + 1) where k < end {
                    minX = Swift.min(minX, xs[k]); maxX = Swift.max(maxX, xs[k])
                    minY = Swift.min(minY, ys[k]); maxY = Swift.max(maxY, ys[k])
                }
                far.removeAll(keepingCapacity: true)
                near.removeAll(keepingCapacity: true)
                interactions(of: group, leaf: leaf, box: (minX, maxX, minY, maxY), nodes, stack, &far, &near)
                for k in start..<end {
                    let slot = 2 * (k - first)
                    let i = Int(order[k])
                    guard !pinned[i] else { out[slot] = 0; out[slot + 1] = 0; continue }
                    let f = force(on: k, id: ids[i], xs, ys, ids, order, nodes, far, near)
                    out[slot] = f.x
                    out[slot + 1] = f.y
                }
            }
        }
        }}}}}}}
    }

    /// The interaction list of one leaf: the nodes far enough from its cells' box to act
    /// through their expansion, and the leaves (itself included) to sum exactly.
    private func interactions(of group: PackedNode, leaf: Int, box: (Double, Double, Double, Double),
                              _ nodes: UnsafeBufferPointer<PackedNode>, _ stack: UnsafeMutableBufferPointer<Int32>,
                              _ far: inout [Int32], _ near: inout [Int32]) {
        let theta2 = theta * theta
        stack[0] = 0
        var top = 1
        while top > 0 {
            top -= 1
            let index = Int(stack[top])
            let node = nodes[index]
            if node.firstChild < 0 {
                near.append(Int32(index))
                continue
            }
            // An ancestor of this leaf holds its cells: never use its expansion.
            let ancestor = Swift.abs(group.centerX - node.centerX) <= node.half
                && Swift.abs(group.centerY - node.centerY) <= node.half
            let dx = Swift.max(box.0 - node.massX, 0, node.massX - box.1)
            let dy = Swift.max(box.2 - node.massY, 0, node.massY - box.3)
            let width = 2 * node.half
            if !ancestor && width * width < theta2 * (dx * dx + dy * dy) {
                far.append(Int32(index))
            } else {
                let child = Int(node.firstChild)
                for c in child..<(child + 4) where nodes[c].mass > 0 {
                    stack[top] = Int32(c)
                    top += 1
                }
            }
        }
    }

    /// The repulsion on the cell at tree position `k`. Both loops take two interactions
    /// at a time in SIMD2 lanes (SSE2, on every x86-64), falling back to the scalar path for
    /// the rare pair that needs care (the cell itself, coincident cells).
    @inline(__always)
    private func force(on k: Int, id: CellID, _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
                       _ ids: UnsafeBufferPointer<CellID>, _ order: UnsafeBufferPointer<Int32>,
                       _ nodes: UnsafeBufferPointer<PackedNode>, _ far: [Int32], _ near: [Int32]) -> (x: Double, y: Double) {
        let minD = Coulomb.minDistance
        let c = chargeCubed
        let xi = xs[k], yi = ys[k]
        let xv = SIMD2(repeating: xi), yv = SIMD2(repeating: yi)
        var axv = SIMD2<Double>.zero, ayv = SIMD2<Double>.zero
        var ax = 0.0, ay = 0.0

        far.withUnsafeBufferPointer { far in
            var f = 0
            while f + 1 < far.count {
                let a = nodes[Int(far[f])], b = nodes[Int(far[f + 1])]
                f += 2
                // F = c [M r/r³ − Q r/r⁵ + 5/2 (rᵀQr) r/r⁷], r from the center of mass.
                let dx = xv - SIMD2(a.massX, b.massX), dy = yv - SIMD2(a.massY, b.massY)
                let r = (dx * dx + dy * dy).squareRoot().replacing(with: minD, where: (dx * dx + dy * dy) .< minD * minD)
                let inv2 = 1 / (r * r)
                let inv3 = inv2 / r
                let inv5 = inv3 * inv2
                let qxx = SIMD2(a.qxx, b.qxx), qyy = SIMD2(a.qyy, b.qyy), qxy = SIMD2(a.qxy, b.qxy)
                let qx = qxx * dx + qxy * dy
                let qy = qxy * dx + qyy * dy
                let radial = SIMD2(a.mass, b.mass) * inv3 + 2.5 * (dx * qx + dy * qy) * inv5 * inv2
                axv += dx * radial - qx * inv5
                ayv += dy * radial - qy * inv5
            }
            if f < far.count {
                let f1 = farForce(nodes[Int(far[f])], xi, yi, minD)
                ax += f1.x
                ay += f1.y
            }
        }
        axv *= c
        ayv *= c

        let eps2 = Wiggle.epsilon * Wiggle.epsilon
        for index in near {
            let leaf = nodes[Int(index)]
            var j = Int(leaf.start)
            let end = j + Int(leaf.count)
            while j + 1 < end {
                let dx = xv - SIMD2(xs[j], xs[j + 1]), dy = yv - SIMD2(ys[j], ys[j + 1])
                let d2 = dx * dx + dy * dy
                if any(d2 .< eps2) || any(d2 .> 1e300) {
                    let p = nearForce(k, j, id, xi, yi, xs, ys, ids, order)
                    let q = nearForce(k, j + 1, id, xi, yi, xs, ys, ids, order)
                    ax += p.x + q.x
                    ay += p.y + q.y
                } else {
                    let r = d2.squareRoot()
                    let rc = pointwiseMax(r, SIMD2(repeating: minD))
                    let s = c / (rc * rc * r)
                    axv += dx * s
                    ayv += dy * s
                }
                j += 2
            }
            if j < end {
                let p = nearForce(k, j, id, xi, yi, xs, ys, ids, order)
                ax += p.x
                ay += p.y
            }
        }
        return (ax + axv.sum(), ay + ayv.sum())
    }

    /// One far node's expansion on the point (xi, yi), without the factor charge³.
    @inline(__always)
    private func farForce(_ node: PackedNode, _ xi: Double, _ yi: Double, _ minD: Double) -> (x: Double, y: Double) {
        let dx = xi - node.massX, dy = yi - node.massY
        let r = Swift.max((dx * dx + dy * dy).squareRoot(), minD)
        let inv2 = 1 / (r * r)
        let inv3 = inv2 / r
        let inv5 = inv3 * inv2
        let qx = node.qxx * dx + node.qxy * dy
        let qy = node.qxy * dx + node.qyy * dy
        let radial = node.mass * inv3 + 2.5 * (dx * qx + dy * qy) * inv5 * inv2
        return (chargeCubed * (dx * radial - qx * inv5), chargeCubed * (dy * radial - qy * inv5))
    }

    /// One exact pair, as the exact sum does it (clamped distance, wiggle when coincident).
    @inline(__always)
    private func nearForce(_ k: Int, _ j: Int, _ id: CellID, _ xi: Double, _ yi: Double,
                           _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
                           _ ids: UnsafeBufferPointer<CellID>, _ order: UnsafeBufferPointer<Int32>) -> (x: Double, y: Double) {
        guard j != k else { return (0, 0) }
        let minD = Coulomb.minDistance
        let dx = xi - xs[j], dy = yi - ys[j]
        let d2 = dx * dx + dy * dy
        if d2 < Wiggle.epsilon * Wiggle.epsilon {
            let w = Wiggle.direction(for: id, awayFrom: ids[Int(order[j])], tick: tick)
            let coincident = chargeCubed / (minD * minD)
            return (w.x * coincident, w.y * coincident)
        }
        guard d2.isFinite else { return (0, 0) }
        let r = d2.squareRoot()
        let rc = Swift.max(r, minD)
        let s = chargeCubed / (rc * rc * r)
        return (dx * s, dy * s)
    }
}
