extension QuadTree {
    /// Lays out the top's nodes, then every subtree's but its root (which fills the top's
    /// slot for it), in one array; then completes the top's moments, children before parents.
    /// Returns every non-empty leaf in tree order.
    static func stitch(_ top: SubtreeBuilder, _ subtrees: [SubtreeBuilder], into nodes: inout [PackedNode],
                       parallel: Bool) -> [Int32] {
        let topCount = top.nodes.count
        var bases: [Int] = []
        var total = topCount
        for subtree in subtrees {
            bases.append(total)
            total += subtree.nodes.count - 1
        }
        resize(&nodes, total, top.nodes[0])
        let slots = top.deferred.map(\.slot), starts = bases
        nodes.withUnsafeMutableBufferPointer { nodes in
            _ = nodes.update(fromContentsOf: top.nodes)
            let shared = DisjointBuffer(nodes)
            // Work item t writes its subtree's slots: its root's in the top, its own range after.
            forEachWorkItem(subtrees.count, parallel: parallel) { t in
                let local = subtrees[t].nodes, base = starts[t], slot = slots[t]
                for i in 0..<local.count {
                    var node = local[i]
                    if node.firstChild >= 0 { node.firstChild = Int32(base + Int(node.firstChild) - 1) }
                    shared[i == 0 ? slot : base + i - 1] = node
                }
            }
            for index in stride(from: topCount - 1, through: 0, by: -1) where !nodes[index].isLeaf {
                NodeMoments.parent(nodes, index)
            }
        }
        return leavesInOrder(top, subtrees, bases, slots)
    }

    /// The top's leaves and each subtree's (renumbered), ordered by where their cells start.
    private static func leavesInOrder(_ top: SubtreeBuilder, _ subtrees: [SubtreeBuilder], _ bases: [Int],
                                      _ slots: [Int]) -> [Int32] {
        var pieces: [(start: Int32, subtree: Int)] = top.leaves.map { (top.nodes[Int($0)].start, -1 - Int($0)) }
        for (t, slot) in slots.enumerated() { pieces.append((top.nodes[slot].start, t)) }
        pieces.sort { $0.start < $1.start }
        var leaves: [Int32] = []
        leaves.reserveCapacity(top.leaves.count + subtrees.reduce(0) { $0 + $1.leaves.count })
        for piece in pieces {
            guard piece.subtree >= 0 else { leaves.append(Int32(-1 - piece.subtree)); continue }
            let base = bases[piece.subtree], slot = slots[piece.subtree]
            for leaf in subtrees[piece.subtree].leaves {
                leaves.append(Int32(leaf == 0 ? slot : base + Int(leaf) - 1))
            }
        }
        return leaves
    }
}
