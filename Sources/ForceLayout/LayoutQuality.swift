/// Measures of a layout's result, for tests and benchmarks.
public enum LayoutQuality {
    /// Pairs of cells whose discs overlap (centers closer than `cellSize`, less the
    /// collision tolerance of a thousandth of a cell), and the smallest center distance seen.
    /// Uses a uniform grid of cell-sized buckets, so it is near linear in the cell count.
    public static func overlaps(_ simulation: Simulation) -> (pairs: Int, closest: Double) {
        let size = simulation.parameters.cellSize
        let xs = simulation.xs, ys = simulation.ys
        let n = xs.count
        guard n > 1 else { return (0, .infinity) }
        var buckets: [Int64: [Int]] = [:]
        func key(_ gx: Int64, _ gy: Int64) -> Int64 { gx &* 73_856_093 ^ gy &* 19_349_663 }
        func cell(_ v: Double) -> Int64 { Int64((v / size).rounded(.down)) }
        for i in 0..<n { buckets[key(cell(xs[i]), cell(ys[i])), default: []].append(i) }
        let limit = size * (1 - Collision.tolerance)
        var pairs = 0
        var closest = Double.infinity
        for i in 0..<n {
            let gx = cell(xs[i]), gy = cell(ys[i])
            var seen = Set<Int>()
            for ox in -1...1 {
                for oy in -1...1 {
                    for j in buckets[key(gx + Int64(ox), gy + Int64(oy))] ?? [] where j > i && !seen.contains(j) {
                        seen.insert(j)
                        let dx = xs[i] - xs[j], dy = ys[i] - ys[j]
                        let distance = (dx * dx + dy * dy).squareRoot()
                        closest = Swift.min(closest, distance)
                        if distance < limit { pairs += 1 }
                    }
                }
            }
        }
        return (pairs, closest)
    }

    /// How much closer linked cells are than cells overall: the mean distance of all pairs
    /// over the mean length of the links (0 without links). All pairs are summed exactly
    /// up to 5,000 cells, else over a fixed sample of 5,000.
    public static func linkRatio(_ simulation: Simulation) -> Double {
        let links = simulation.links
        guard !links.isEmpty, simulation.count > 1 else { return 0 }
        func distance(_ a: CellID, _ b: CellID) -> Double {
            let p = simulation.position(of: a)!, q = simulation.position(of: b)!
            return ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
        }
        let linked = links.reduce(0.0) { $0 + distance($1.source, $1.target) } / Double(links.count)
        let xs = simulation.xs, ys = simulation.ys
        let stride = Swift.max(1, xs.count / 5000)
        let sample = Swift.stride(from: 0, to: xs.count, by: stride).map { $0 }
        var total = 0.0, pairs = 0.0
        for (k, i) in sample.enumerated() {
            for j in sample[(k + 1)...] {
                total += ((xs[i] - xs[j]) * (xs[i] - xs[j]) + (ys[i] - ys[j]) * (ys[i] - ys[j])).squareRoot()
                pairs += 1
            }
        }
        return linked > 0 ? total / pairs / linked : 0
    }
}
