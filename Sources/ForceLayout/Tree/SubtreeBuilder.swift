/// Builds the part of the tree below one node, over that node's range of the points, into
/// nodes of its own (index 0 is the node itself). Each parallel work item owns one builder
/// and its range of `points`, `scratch` and the tree-order outputs, and touches nothing else.
struct SubtreeBuilder {
    /// A node left for a parallel work item: its slot here and its depth.
    struct Deferred { var slot: Int; var depth: Int }

    let points: DisjointBuffer<TreePoint>
    let scratch: DisjointBuffer<TreePoint>
    let out: TreeOutput
    /// Nodes of more than `leafCapacity` and at most this many cells are not split here but
    /// deferred (0: split everything).
    let deferAtMost: Int
    private(set) var nodes: [PackedNode]
    private(set) var leaves: [Int32] = []
    private(set) var deferred: [Deferred] = []

    init(root: PackedNode, points: DisjointBuffer<TreePoint>, scratch: DisjointBuffer<TreePoint>,
         out: TreeOutput, deferAtMost: Int = 0) {
        self.points = points
        self.scratch = scratch
        self.out = out
        self.deferAtMost = deferAtMost
        nodes = [root]
        nodes.reserveCapacity(Swift.max(4, Int(root.count) / 2))
    }

    /// Splits `slot` (and below) until every node is a leaf or deferred, then computes the
    /// moments of every internal node, children before parents.
    mutating func build(depth: Int) {
        grow(0, depth)
        nodes.withUnsafeMutableBufferPointer { nodes in
            for index in stride(from: nodes.count - 1, through: 0, by: -1) where !nodes[index].isLeaf {
                NodeMoments.parent(nodes, index)
            }
        }
    }

    private mutating func grow(_ slot: Int, _ depth: Int) {
        let node = nodes[slot]
        let count = Int(node.count)
        if count <= QuadTree.leafCapacity || depth >= QuadTree.maxDepth {
            makeLeaf(slot)
            return
        }
        if count <= deferAtMost {
            deferred.append(Deferred(slot: slot, depth: depth))
            return
        }
        let starts = partition(node)
        let ends = SIMD4(starts[1], starts[2], starts[3], Int(node.start) + count)
        let first = nodes.count
        let h = node.half * 0.5
        for q in 0..<4 {
            nodes.append(PackedNode(
                centerX: node.centerX + (q & 1 == 0 ? -h : h), centerY: node.centerY + (q & 2 == 0 ? -h : h),
                half: h, start: starts[q], count: ends[q] - starts[q]))
        }
        nodes[slot].firstChild = Int32(first)
        for q in 0..<4 where ends[q] > starts[q] { nodes[slot].occupied |= 1 << q }
        for q in 0..<4 { grow(first + q, depth + 1) }
    }

    /// Sorts the node's points by quadrant (stable: a counting sort through `scratch`) and
    /// returns where each quadrant's range starts.
    private func partition(_ node: PackedNode) -> SIMD4<Int> {
        let start = Int(node.start), end = start + Int(node.count)
        let cx = node.centerX, cy = node.centerY
        var starts = SIMD4<Int>.zero
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 4) { next in
            next.initialize(repeating: 0)
            for k in start..<end { next[quadrant(points[k], cx, cy)] &+= 1 }
            starts = SIMD4(start, start + next[0], start + next[0] + next[1], start + next[0] + next[1] + next[2])
            for q in 0..<4 { next[q] = starts[q] }
            for k in start..<end {
                let q = quadrant(points[k], cx, cy)
                scratch[next[q]] = points[k]
                next[q] &+= 1
            }
        }
        _ = points.slice(start..<end).update(fromContentsOf: scratch.slice(start..<end))
        return starts
    }

    /// 1 for x at or right of the center, plus 2 for y at or above it; from the sign bits of
    /// the differences, without branches (random points make a branch a coin toss).
    @inline(__always)
    private func quadrant(_ p: TreePoint, _ cx: Double, _ cy: Double) -> Int {
        let bits = SIMD2<Int64>.zero.replacing(with: SIMD2(1, 2), where: SIMD2(p.x, p.y) .>= SIMD2(cx, cy))
        return Int(bits[0] | bits[1])
    }

    /// A leaf: its moments, and its cells written out in tree order.
    private mutating func makeLeaf(_ slot: Int) {
        let start = Int(nodes[slot].start), count = Int(nodes[slot].count)
        guard count > 0 else { return }
        NodeMoments.leaf(&nodes[slot], points.buffer)
        for k in start..<(start + count) {
            out.order[k] = points[k].index
            out.x[k] = points[k].x
            out.y[k] = points[k].y
        }
        leaves.append(Int32(slot))
    }
}

/// The tree-order outputs of a build, which every work item writes in its own ranges.
struct TreeOutput: Sendable {
    let order: DisjointBuffer<Int32>
    let x: DisjointBuffer<Double>
    let y: DisjointBuffer<Double>
}
