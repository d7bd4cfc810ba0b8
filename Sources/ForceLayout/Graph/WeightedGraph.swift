/// A graph by node index, as the graph model's levels hold it: every node's neighbours in
/// one array (`neighbours[offsets[i] ..< offsets[i + 1]]`, both directions of each edge),
/// each with the edge's weight, and every node's weight (how many cells it stands for).
/// The finest level is the layout's cells and links; each coarser one is made by
/// `coarsened()`. Pure, immutable once built.
struct WeightedGraph: Sendable {
    let offsets: [Int32]
    let neighbours: [Int32]
    let weights: [Double]
    let nodeWeights: [Double]

    var count: Int { nodeWeights.count }
    var edgeCount: Int { neighbours.count / 2 }

    init(offsets: [Int32], neighbours: [Int32], weights: [Double], nodeWeights: [Double]) {
        self.offsets = offsets
        self.neighbours = neighbours
        self.weights = weights
        self.nodeWeights = nodeWeights
    }

    /// The graph of `count` nodes with these edges (index pairs, no loops, no duplicates).
    init(count: Int, edges: [(Int32, Int32, Double)]) {
        var degree = [Int32](repeating: 0, count: count + 1)
        for (a, b, _) in edges {
            degree[Int(a) + 1] += 1
            degree[Int(b) + 1] += 1
        }
        for i in 0..<count { degree[i + 1] += degree[i] }
        var next = Array(degree.dropLast())
        var neighbours = [Int32](repeating: 0, count: 2 * edges.count)
        var weights = [Double](repeating: 0, count: 2 * edges.count)
        for (a, b, w) in edges {
            neighbours[Int(next[Int(a)])] = b; weights[Int(next[Int(a)])] = w; next[Int(a)] += 1
            neighbours[Int(next[Int(b)])] = a; weights[Int(next[Int(b)])] = w; next[Int(b)] += 1
        }
        self.init(offsets: degree, neighbours: neighbours, weights: weights,
                  nodeWeights: [Double](repeating: 1, count: count))
    }

    @inline(__always)
    func edges(of node: Int) -> Range<Int> { Int(offsets[node])..<Int(offsets[node + 1]) }

    func degree(of node: Int) -> Int { Int(offsets[node + 1] - offsets[node]) }

    /// Each node's connected component, numbered from 0 in order of first appearance.
    func components() -> (of: [Int32], count: Int) {
        var component = [Int32](repeating: -1, count: count)
        var stack: [Int32] = []
        var next: Int32 = 0
        for start in 0..<count where component[start] < 0 {
            component[start] = next
            stack.append(Int32(start))
            while let node = stack.popLast() {
                for e in edges(of: Int(node)) {
                    let other = Int(neighbours[e])
                    if component[other] < 0 {
                        component[other] = next
                        stack.append(Int32(other))
                    }
                }
            }
            next += 1
        }
        return (component, Int(next))
    }
}
