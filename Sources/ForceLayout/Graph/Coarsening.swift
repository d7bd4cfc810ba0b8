/// One level of coarsening (Hu 2005, Walshaw 2003): neighbours are paired by a maximal
/// matching, visiting nodes in a seeded random order and pairing each with its unpaired
/// neighbour of least weight (which keeps coarse nodes even), then a node left unpaired
/// joins the lightest group among its neighbours'. So every node with a neighbour ends in a
/// group of two or more, and hubs with many leaves (stars, scale-free graphs), where a
/// matching alone barely shrinks the graph, collapse too. A group's weight is the sum of
/// its nodes'; an edge between two groups weighs the sum of the edges it stands for.
struct Coarsening: Sendable {
    /// The group (coarse node) of each fine node.
    let groupOf: [Int32]
    let coarse: WeightedGraph

    init(_ graph: WeightedGraph, rng: inout SeededRandom) {
        let n = graph.count
        var order = Array(0..<Int32(n))
        order.shuffle(using: &rng)
        var group = [Int32](repeating: -1, count: n)
        var groupWeight: [Double] = []
        Self.pair(graph, order: order, group: &group, groupWeight: &groupWeight, rng: &rng)
        Self.joinUnpaired(graph, order: order, group: &group, groupWeight: &groupWeight)
        groupOf = group
        coarse = Self.contract(graph, groups: group, weights: groupWeight)
    }

    /// The matching: each node in `order` not yet in a group is paired with its unpaired
    /// neighbour of least weight, the two making a new group.
    private static func pair(_ graph: WeightedGraph, order: [Int32], group: inout [Int32], groupWeight: inout [Double],
                             rng: inout SeededRandom) {
        for node in order where group[Int(node)] < 0 {
            // Ties go to a random one: scanning in a fixed order would pair a grid's nodes
            // all along one axis, and its coarse levels would come out twice as long as wide.
            var best = -1
            let edges = graph.edges(of: Int(node))
            let first = edges.isEmpty ? 0 : Int.random(in: 0..<edges.count, using: &rng)
            for k in 0..<edges.count {
                let e = edges.lowerBound + (first + k) % edges.count
                let other = Int(graph.neighbours[e])
                guard group[other] < 0, other != Int(node) else { continue }
                if best < 0 || graph.nodeWeights[other] < graph.nodeWeights[best] { best = other }
            }
            guard best >= 0 else { continue }
            let g = Int32(groupWeight.count)
            group[Int(node)] = g
            group[best] = g
            groupWeight.append(graph.nodeWeights[Int(node)] + graph.nodeWeights[best])
        }
    }

    /// Unpaired nodes: into their lightest neighbouring group, or a group of their own.
    private static func joinUnpaired(_ graph: WeightedGraph, order: [Int32], group: inout [Int32],
                                     groupWeight: inout [Double]) {
        for node in order where group[Int(node)] < 0 {
            var best: Int32 = -1
            for e in graph.edges(of: Int(node)) {
                let g = group[Int(graph.neighbours[e])]
                if g >= 0 && (best < 0 || groupWeight[Int(g)] < groupWeight[Int(best)]) { best = g }
            }
            if best < 0 {
                best = Int32(groupWeight.count)
                groupWeight.append(0)
            }
            group[Int(node)] = best
            groupWeight[Int(best)] += graph.nodeWeights[Int(node)]
        }
    }

    /// The graph of the groups: an edge between two groups for the edges between their
    /// nodes, weighing their sum; edges inside a group vanish.
    private static func contract(_ graph: WeightedGraph, groups: [Int32], weights: [Double]) -> WeightedGraph {
        let m = weights.count
        let members = Grouping(labels: groups, count: m)
        var offsets = [Int32](repeating: 0, count: m + 1)
        var neighbours: [Int32] = []
        var edgeWeights: [Double] = []
        neighbours.reserveCapacity(graph.neighbours.count / 2)
        edgeWeights.reserveCapacity(graph.neighbours.count / 2)
        // slot[h]: where coarse neighbour h of the group being built sits, or -1.
        var slot = [Int32](repeating: -1, count: m)
        for g in 0..<m {
            let first = neighbours.count
            for member in members.nodes(of: g) {
                let node = Int(member)
                for e in graph.edges(of: node) {
                    let h = groups[Int(graph.neighbours[e])]
                    guard Int(h) != g else { continue }
                    if slot[Int(h)] < 0 {
                        slot[Int(h)] = Int32(neighbours.count)
                        neighbours.append(h)
                        edgeWeights.append(graph.weights[e])
                    } else {
                        edgeWeights[Int(slot[Int(h)])] += graph.weights[e]
                    }
                }
            }
            for k in first..<neighbours.count { slot[Int(neighbours[k])] = -1 }
            offsets[g + 1] = Int32(neighbours.count)
        }
        return WeightedGraph(offsets: offsets, neighbours: neighbours, weights: edgeWeights, nodeWeights: weights)
    }
}
