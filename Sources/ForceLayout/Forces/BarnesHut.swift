import Dispatch
import Synchronization

/// The Coulomb repulsion approximated with a Barnes-Hut quadtree: a node whose width `w`
/// seen from the cell at distance `d` satisfies `w / d < theta` acts as its multipole
/// expansion (the total charge at the center of mass plus the quadrupole term, which cuts
/// the error several times over for a few more operations); nearer nodes are opened. Leaves are summed exactly, with the
/// same clamping and wiggle as the exact sum. A node that contains the cell is always
/// opened, so no cell ever pushes itself.
struct BarnesHut {
    private struct ForceBuffers: Sendable {
        var x: [Double]
        var y: [Double]
    }

    /// Cells per parallel work item, in tree order.
    static let chunkSize = 256
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

        let chunks = (n + Self.chunkSize - 1) / Self.chunkSize
        let out = Mutex(ForceBuffers(x: fx, y: fy))
        fx = []
        fy = []
        let work: @Sendable (Int) -> Void = { chunk in
            let start = chunk * Self.chunkSize
            let range = start..<Swift.min(start + Self.chunkSize, n)
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * range.count) { tmp in
                accumulate(range, tree, xs, ys, ids, pinned, tmp)
                let order = tree.order
                out.withLock { buffers in
                    for k in 0..<range.count {
                        let cell = Int(order[range.lowerBound + k])
                        buffers.x[cell] = tmp[2 * k]
                        buffers.y[cell] = tmp[2 * k + 1]
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

    /// Forces on the cells at `range` of the tree order, into `out` as x, y pairs.
    private func accumulate(_ range: Range<Int>, _ tree: QuadTree, _ xs: [Double], _ ys: [Double],
                            _ ids: [CellID], _ pinned: [Bool], _ out: UnsafeMutableBufferPointer<Double>) {
        let theta2 = theta * theta
        let minD = Coulomb.minDistance
        let eps2 = Wiggle.epsilon * Wiggle.epsilon
        let k = chargeCubed
        let coincident = k / (minD * minD)
        tree.order.withUnsafeBufferPointer { order in
        tree.firstChild.withUnsafeBufferPointer { firstChild in
        tree.head.withUnsafeBufferPointer { head in
        tree.next.withUnsafeBufferPointer { next in
        tree.mass.withUnsafeBufferPointer { mass in
        tree.massX.withUnsafeBufferPointer { massX in
        tree.massY.withUnsafeBufferPointer { massY in
        tree.qxx.withUnsafeBufferPointer { qxx in
        tree.qyy.withUnsafeBufferPointer { qyy in
        tree.qxy.withUnsafeBufferPointer { qxy in
        tree.centerX.withUnsafeBufferPointer { centerX in
        tree.centerY.withUnsafeBufferPointer { centerY in
        tree.half.withUnsafeBufferPointer { half in
        xs.withUnsafeBufferPointer { xs in
        ys.withUnsafeBufferPointer { ys in
        ids.withUnsafeBufferPointer { ids in
        pinned.withUnsafeBufferPointer { pinned in
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * QuadTree.maxDepth + 8) { stack in
            for slot in range {
                let i = Int(order[slot])
                let k2 = 2 * (slot - range.lowerBound)
                guard !pinned[i] else { out[k2] = 0; out[k2 + 1] = 0; continue }
                let xi = xs[i], yi = ys[i]
                var ax = 0.0, ay = 0.0
                var top = 0
                stack[0] = 0
                top = 1
                while top > 0 {
                    top -= 1
                    let node = Int(stack[top])
                    let child = Int(firstChild[node])
                    if child < 0 {
                        var j = Int(head[node])
                        while j >= 0 {
                            if j != i {
                                let dx = xi - xs[j], dy = yi - ys[j]
                                let d2 = dx * dx + dy * dy
                                if d2 < eps2 {
                                    let w = Wiggle.direction(for: ids[i], awayFrom: ids[j], tick: tick)
                                    ax += w.x * coincident
                                    ay += w.y * coincident
                                } else if d2.isFinite {
                                    let r = d2.squareRoot()
                                    let rc = Swift.max(r, minD)
                                    let s = k / (rc * rc * r)
                                    ax += dx * s
                                    ay += dy * s
                                }
                            }
                            j = Int(next[j])
                        }
                        continue
                    }
                    let h = half[node]
                    let inside = Swift.abs(xi - centerX[node]) <= h && Swift.abs(yi - centerY[node]) <= h
                    let dx = xi - massX[node], dy = yi - massY[node]
                    let d2 = dx * dx + dy * dy
                    let width = 2 * h
                    if !inside && width * width < theta2 * d2 {
                        // F = k [M r/r³ − Q r/r⁵ + 5/2 (rᵀQr) r/r⁷], r from the center of mass.
                        let r = Swift.max(d2.squareRoot(), minD)
                        let inv2 = 1 / (r * r)
                        let inv3 = inv2 / r
                        let inv5 = inv3 * inv2
                        let qx = qxx[node] * dx + qxy[node] * dy
                        let qy = qxy[node] * dx + qyy[node] * dy
                        let rqr = dx * qx + dy * qy
                        let radial = mass[node] * inv3 + 2.5 * rqr * inv5 * inv2
                        ax += k * (dx * radial - qx * inv5)
                        ay += k * (dy * radial - qy * inv5)
                    } else {
                        for c in child..<(child + 4) where mass[c] > 0 {
                            stack[top] = Int32(c)
                            top += 1
                        }
                    }
                }
                out[k2] = ax
                out[k2 + 1] = ay
            }
        }
        }}}}}}}}}}}}}}}}}
    }
}
