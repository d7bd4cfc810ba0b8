import XCTest
@testable import ForceLayout

/// Graphs for the graph model's tests, as (cell count, links by index).
enum TestGraphs {
    static func path(_ n: Int) -> (Int, [(Int, Int)]) { (n, (0..<(n - 1)).map { ($0, $0 + 1) }) }

    static func ring(_ n: Int) -> (Int, [(Int, Int)]) { (n, (0..<n).map { ($0, ($0 + 1) % n) }) }

    /// A w × h grid, node r·w + c.
    static func grid(_ w: Int, _ h: Int) -> (Int, [(Int, Int)]) {
        var links: [(Int, Int)] = []
        for r in 0..<h {
            for c in 0..<w {
                if c + 1 < w { links.append((r * w + c, r * w + c + 1)) }
                if r + 1 < h { links.append((r * w + c, (r + 1) * w + c)) }
            }
        }
        return (w * h, links)
    }

    /// Preferential attachment, each new node linked to `m` earlier ones (seeded).
    static func scaleFree(_ n: Int, m: Int, seed: UInt64) -> (Int, [(Int, Int)]) {
        var rng = SeededRandom(seed: seed)
        var ends: [Int] = Array(0..<m)
        var links: [(Int, Int)] = []
        for node in m..<n {
            var targets = Set<Int>()
            while targets.count < m { targets.insert(ends[Int.random(in: 0..<ends.count, using: &rng)]) }
            for t in targets.sorted() {
                links.append((node, t))
                ends.append(t)
                ends.append(node)
            }
        }
        return (n, links)
    }
}

/// A simulation holding the graph (cells spawned at random, then linked in one batch).
func graphSimulation(_ graph: (Int, [(Int, Int)]), seed: UInt64 = 1, parameters: Parameters = .defaults) -> (Simulation, [CellID]) {
    let sim = Simulation(parameters: parameters, seed: seed)
    let ids = sim.add(count: graph.0)
    try! sim.link(graph.1.map { Link(source: ids[$0.0], target: ids[$0.1]) })
    return (sim, ids)
}

/// For each cell, the share of its graph neighbours among its `degree` nearest cells in the
/// drawing, averaged (the bench's neighbourhood preservation, exact and quadratic: small graphs).
func neighbourhoodPreservation(_ sim: Simulation, _ ids: [CellID], _ links: [(Int, Int)]) -> Double {
    var neighbours = [Set<Int>](repeating: [], count: ids.count)
    for (a, b) in links { neighbours[a].insert(b); neighbours[b].insert(a) }
    let points = ids.map { sim.position(of: $0)! }
    var total = 0.0
    for i in ids.indices where !neighbours[i].isEmpty {
        let nearest = ids.indices.filter { $0 != i }
            .sorted { distance(points[i], points[$0]) < distance(points[i], points[$1]) }
            .prefix(neighbours[i].count)
        let shared = Set(nearest).intersection(neighbours[i]).count
        total += Double(shared) / Double(neighbours[i].union(nearest).count)
    }
    return total / Double(ids.count)
}

/// The coefficient of variation of the drawn links' lengths.
func linkLengthVariation(_ sim: Simulation, _ ids: [CellID], _ links: [(Int, Int)]) -> Double {
    let lengths = links.map { distance(sim.position(of: ids[$0.0])!, sim.position(of: ids[$0.1])!) }
    let mean = lengths.reduce(0, +) / Double(lengths.count)
    let variance = lengths.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(lengths.count)
    return variance.squareRoot() / mean
}
