/// A region quadtree over the cells, rebuilt every step into flat arrays (no per-node
/// objects). Leaves hold up to `leafCapacity` cells in a linked list; a node's mass is its
/// cell count and its center of mass the mean of its cells. Children of a node are four
/// consecutive nodes allocated after it, so a reverse pass aggregates bottom-up.
struct QuadTree {
    static let leafCapacity = 8
    /// Past this depth a leaf just grows: coincident cells cannot be separated by splitting.
    static let maxDepth = 40

    // Per node.
    private(set) var centerX: [Double] = []
    private(set) var centerY: [Double] = []
    private(set) var half: [Double] = []
    /// Index of the first of four children, or -1 for a leaf.
    private(set) var firstChild: [Int32] = []
    /// First cell of a leaf's list, or -1.
    private(set) var head: [Int32] = []
    private(set) var mass: [Double] = []
    private(set) var massX: [Double] = []
    private(set) var massY: [Double] = []
    /// Quadrupole moments about the center of mass (in-plane part of the 3D tensor of a
    /// 1/r potential): qxx = Σ(2x² − y²), qyy = Σ(2y² − x²), qxy = Σ3xy.
    private(set) var qxx: [Double] = []
    private(set) var qyy: [Double] = []
    private(set) var qxy: [Double] = []
    // Per cell: the next cell in the same leaf, or -1.
    private(set) var next: [Int32] = []
    /// Cells in leaf order (depth first): neighbours in space are neighbours here, and the
    /// cells of one leaf are contiguous.
    private(set) var order: [Int32] = []
    /// Every non-empty leaf, in the same order, with where its cells start in `order`.
    private(set) var leaves: [Int32] = []
    private(set) var leafStart: [Int32] = []
    /// The node data the force pass reads, packed per node for locality.
    private(set) var packed: [PackedNode] = []


    /// Rebuilds the tree over `xs`, `ys`, reusing the arrays' storage.
    mutating func build(xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>) {
        let n = xs.count
        centerX.removeAll(keepingCapacity: true)
        centerY.removeAll(keepingCapacity: true)
        half.removeAll(keepingCapacity: true)
        firstChild.removeAll(keepingCapacity: true)
        head.removeAll(keepingCapacity: true)
        mass.removeAll(keepingCapacity: true)
        massX.removeAll(keepingCapacity: true)
        massY.removeAll(keepingCapacity: true)
        qxx.removeAll(keepingCapacity: true)
        qyy.removeAll(keepingCapacity: true)
        qxy.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        leaves.removeAll(keepingCapacity: true)
        leafStart.removeAll(keepingCapacity: true)
        packed.removeAll(keepingCapacity: true)
        if next.count != n { next = [Int32](repeating: -1, count: n) }
        guard n > 0 else { return }

        var minX = xs[0], maxX = xs[0], minY = ys[0], maxY = ys[0]
        for i in 1..<n {
            minX = Swift.min(minX, xs[i]); maxX = Swift.max(maxX, xs[i])
            minY = Swift.min(minY, ys[i]); maxY = Swift.max(maxY, ys[i])
        }
        // A square a little larger than the content, so every cell is strictly inside.
        let side = Swift.max(maxX - minX, maxY - minY, 1e-9)
        let rootHalf = side * 0.5 * (1 + 1e-9) + 1e-9
        addNode(x: (minX + maxX) * 0.5, y: (minY + maxY) * 0.5, half: rootHalf)

        var counts: [Int32] = [0]  // cells in each leaf, while building
        counts.reserveCapacity(half.capacity)
        for i in 0..<n {
            insert(Int32(i), xs: xs, ys: ys, counts: &counts)
        }
        aggregate(xs: xs, ys: ys)
        collectOrder()
        pack()
    }

    private mutating func addNode(x: Double, y: Double, half h: Double) {
        centerX.append(x); centerY.append(y); half.append(h)
        firstChild.append(-1); head.append(-1)
        mass.append(0); massX.append(0); massY.append(0)
        qxx.append(0); qyy.append(0); qxy.append(0)
    }

    @inline(__always)
    private func quadrant(_ node: Int, _ x: Double, _ y: Double) -> Int {
        (x >= centerX[node] ? 1 : 0) | (y >= centerY[node] ? 2 : 0)
    }

    private mutating func insert(_ cell: Int32, xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>,
                                 counts: inout [Int32]) {
        let x = xs[Int(cell)], y = ys[Int(cell)]
        var node = 0
        var depth = 0
        while true {
            let child = Int(firstChild[node])
            if child >= 0 {
                node = child + quadrant(node, x, y)
                depth += 1
                continue
            }
            if Int(counts[node]) < Self.leafCapacity || depth >= Self.maxDepth {
                next[Int(cell)] = head[node]
                head[node] = cell
                counts[node] += 1
                return
            }
            split(node, xs: xs, ys: ys, counts: &counts)
        }
    }

    /// Turns a full leaf into an internal node with four children and moves its cells down.
    private mutating func split(_ node: Int, xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>,
                                counts: inout [Int32]) {
        let first = half.count
        let h = half[node] * 0.5
        let cx = centerX[node], cy = centerY[node]
        addNode(x: cx - h, y: cy - h, half: h)
        addNode(x: cx + h, y: cy - h, half: h)
        addNode(x: cx - h, y: cy + h, half: h)
        addNode(x: cx + h, y: cy + h, half: h)
        counts.append(contentsOf: [0, 0, 0, 0])
        firstChild[node] = Int32(first)
        var cell = head[node]
        head[node] = -1
        counts[node] = 0
        while cell >= 0 {
            let following = next[Int(cell)]
            let target = first + quadrant(node, xs[Int(cell)], ys[Int(cell)])
            next[Int(cell)] = head[target]
            head[target] = cell
            counts[target] += 1
            cell = following
        }
    }

    /// Mass, center of mass and quadrupole of every node, children before parents.
    private mutating func aggregate(xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>) {
        for node in stride(from: half.count - 1, through: 0, by: -1) {
            let (m, sx, sy) = weight(of: node, xs, ys)
            mass[node] = m
            massX[node] = m > 0 ? sx / m : centerX[node]
            massY[node] = m > 0 ? sy / m : centerY[node]
            (qxx[node], qyy[node], qxy[node]) = quadrupole(of: node, xs, ys)
        }
    }

    /// A node's mass and mass-weighted position sums: its cells', or its children's.
    @inline(__always)
    private func weight(of node: Int, _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>)
        -> (m: Double, sx: Double, sy: Double) {
        var m = 0.0, sx = 0.0, sy = 0.0
        let child = Int(firstChild[node])
        if child < 0 {
            var cell = head[node]
            while cell >= 0 {
                m += 1
                sx += xs[Int(cell)]
                sy += ys[Int(cell)]
                cell = next[Int(cell)]
            }
        } else {
            for c in child..<(child + 4) where mass[c] > 0 {
                m += mass[c]
                sx += massX[c] * mass[c]
                sy += massY[c] * mass[c]
            }
        }
        return (m, sx, sy)
    }

    /// A node's quadrupole about its center of mass: from the cells of a leaf, or the
    /// children's own moments shifted to this center (parallel-axis theorem).
    @inline(__always)
    private func quadrupole(of node: Int, _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>)
        -> (xx: Double, yy: Double, xy: Double) {
        let cx = massX[node], cy = massY[node]
        var axx = 0.0, ayy = 0.0, axy = 0.0
        let child = Int(firstChild[node])
        if child < 0 {
            var cell = head[node]
            while cell >= 0 {
                let dx = xs[Int(cell)] - cx, dy = ys[Int(cell)] - cy
                axx += 2 * dx * dx - dy * dy
                ayy += 2 * dy * dy - dx * dx
                axy += 3 * dx * dy
                cell = next[Int(cell)]
            }
        } else {
            for c in child..<(child + 4) where mass[c] > 0 {
                let dx = massX[c] - cx, dy = massY[c] - cy, mc = mass[c]
                axx += qxx[c] + mc * (2 * dx * dx - dy * dy)
                ayy += qyy[c] + mc * (2 * dy * dy - dx * dx)
                axy += qxy[c] + mc * 3 * dx * dy
            }
        }
        return (axx, ayy, axy)
    }

    private mutating func collectOrder() {
        var stack: [Int] = [0]
        while let node = stack.popLast() {
            let child = Int(firstChild[node])
            if child >= 0 {
                for c in stride(from: child + 3, through: child, by: -1) where mass[c] > 0 { stack.append(c) }
            } else {
                leaves.append(Int32(node))
                leafStart.append(Int32(order.count))
                var cell = head[node]
                while cell >= 0 {
                    order.append(cell)
                    cell = next[Int(cell)]
                }
            }
        }
    }

    private mutating func pack() {
        var start = [Int32](repeating: 0, count: half.count)
        for (k, leaf) in leaves.enumerated() { start[Int(leaf)] = leafStart[k] }
        packed.reserveCapacity(half.count)
        for node in 0..<half.count {
            packed.append(PackedNode(
                centerX: centerX[node], centerY: centerY[node], half: half[node],
                massX: massX[node], massY: massY[node], mass: mass[node],
                qxx: qxx[node], qyy: qyy[node], qxy: qxy[node],
                firstChild: firstChild[node], start: start[node], count: Int32(mass[node])))
        }
    }
}

/// One node as the force pass reads it: everything about it in one or two cache lines.
struct PackedNode: Sendable {
    var centerX, centerY, half: Double
    var massX, massY, mass: Double
    var qxx, qyy, qxy: Double
    /// First of four children, or -1 for a leaf.
    var firstChild: Int32
    /// For a leaf: its cells are `order[start ..< start + count]`.
    var start: Int32
    var count: Int32
}
