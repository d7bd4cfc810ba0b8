import Foundation

/// A start for a small graph from its hop distances alone (classical multidimensional
/// scaling, Torgerson 1952; the start Brandes and Pich's stress layouts use): the two
/// leading eigenvectors of the doubly centred matrix of squared distances, each scaled by
/// the root of its eigenvalue. A graph's coarsest level used to start at random places,
/// and a few nodes at random fold easily (a ring of 8 crossed into a figure eight, which
/// every finer level then inherited: a ring of 40 drawn as an "8"); from its distances a
/// ring starts round, a path straight and a grid flat. Components are scaled each on its
/// own, one hop to `length`; those over `limit` nodes (the eigenvectors are found by power
/// iteration on a dense n × n matrix) are left where they are. Pure.
enum ClassicalScaling {
    static let limit = 256
    static let iterations = 200

    /// Places the nodes of every component of `graph` of 2 … `limit` nodes in `xs`, `ys`
    /// about the component's present centroid, keeping a tenth of their present offsets
    /// from it (nodes the distances cannot tell apart, a star's leaves, would coincide).
    /// Returns whether every component of two or more nodes was placed (none left at random).
    @discardableResult
    static func place(graph: WeightedGraph, components: Components, length: Double,
                      xs: inout [Double], ys: inout [Double]) -> Bool {
        var placedAll = true
        for c in 0..<components.count where components.size(of: c) > 1 {
            let members = Array(components.nodes(of: c)).map(Int.init)
            guard members.count <= limit, let (px, py) = coordinates(graph: graph, members: members) else {
                placedAll = false
                continue
            }
            var cx = 0.0, cy = 0.0
            for i in members { cx += xs[i]; cy += ys[i] }
            cx /= Double(members.count); cy /= Double(members.count)
            for (slot, i) in members.enumerated() {
                xs[i] = cx + px[slot] * length + 0.1 * (xs[i] - cx)
                ys[i] = cy + py[slot] * length + 0.1 * (ys[i] - cy)
            }
        }
        return placedAll
    }

    /// Coordinates in hops for the connected `members` of `graph`, centred on 0; nil when
    /// the distances have no positive leading eigenvalue.
    static func coordinates(graph: WeightedGraph, members: [Int]) -> (xs: [Double], ys: [Double])? {
        let n = members.count
        var slot = [Int: Int](minimumCapacity: n)
        for (s, i) in members.enumerated() { slot[i] = s }
        // B = −½ J D² J, D the hop distances.
        var b = [Double](repeating: 0, count: n * n)
        for s in 0..<n {
            for (t, d) in hops(from: members[s], graph: graph, slot: slot, count: n).enumerated() {
                b[s * n + t] = -0.5 * d * d
            }
        }
        var rowMeans = [Double](repeating: 0, count: n), mean = 0.0
        for s in 0..<n {
            for t in 0..<n { rowMeans[s] += b[s * n + t] }
            rowMeans[s] /= Double(n)
            mean += rowMeans[s] / Double(n)
        }
        for s in 0..<n {
            for t in 0..<n { b[s * n + t] += mean - rowMeans[s] - rowMeans[t] }
        }
        let first = leadingEigenvector(b, n: n, orthogonalTo: nil, seed: 1)
        guard first.value > 0 else { return nil }
        let second = leadingEigenvector(b, n: n, orthogonalTo: first.vector, seed: 2)
        let a = first.value.squareRoot(), c = Swift.max(second.value, 0).squareRoot()
        return (first.vector.map { $0 * a }, second.vector.map { $0 * c })
    }

    /// Hop distances from `source` to every member (by slot); unreachable ones (none, in a
    /// component) count as `count` hops.
    private static func hops(from source: Int, graph: WeightedGraph, slot: [Int: Int], count: Int) -> [Double] {
        var distance = [Double](repeating: Double(count), count: count)
        var seen = Set([source])
        var frontier = [source], d = 0.0
        distance[slot[source]!] = 0
        while !frontier.isEmpty {
            d += 1
            var next: [Int] = []
            for i in frontier {
                for e in graph.edges(of: i) {
                    let j = Int(graph.neighbours[e])
                    guard let s = slot[j], seen.insert(j).inserted else { continue }
                    distance[s] = d
                    next.append(j)
                }
            }
            frontier = next
        }
        return distance
    }

    /// The unit eigenvector of the symmetric `matrix` with the largest eigenvalue (power
    /// iteration), kept orthogonal to `other`, from a fixed start; and its eigenvalue.
    private static func leadingEigenvector(_ matrix: [Double], n: Int, orthogonalTo other: [Double]?,
                                           seed: Int) -> (vector: [Double], value: Double) {
        // A start with no symmetry of its own (a ring's or grid's would stall on it).
        var v = (0..<n).map { Foundation.sin(Double((seed * 7919 + $0 * 104_729) % 1_000_003)) }
        var value = 0.0
        for _ in 0..<iterations {
            if let other {
                let along = zip(v, other).reduce(0) { $0 + $1.0 * $1.1 }
                for s in 0..<n { v[s] -= along * other[s] }
            }
            let norm = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
            guard norm > 0 else { return ([Double](repeating: 0, count: n), 0) }
            for s in 0..<n { v[s] /= norm }
            var w = [Double](repeating: 0, count: n)
            for s in 0..<n {
                var sum = 0.0
                for t in 0..<n { sum += matrix[s * n + t] * v[t] }
                w[s] = sum
            }
            value = zip(v, w).reduce(0) { $0 + $1.0 * $1.1 }
            v = w
        }
        if let other {
            let along = zip(v, other).reduce(0) { $0 + $1.0 * $1.1 }
            for s in 0..<n { v[s] -= along * other[s] }
        }
        let norm = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? (v.map { $0 / norm }, value) : ([Double](repeating: 0, count: n), 0)
    }
}
