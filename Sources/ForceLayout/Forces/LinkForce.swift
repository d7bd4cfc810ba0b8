/// The links' springs, as d3-force's `forceLink` (one iteration, alpha 1, since this engine
/// has no cooling): each link pulls its ends toward `distance` apart (its own, else the
/// room's `edgeLength`) by `strength` (its own, else d3's 1 / min(degree), times the room's
/// `linkStrength`) times the difference, each end taking half of the correction.
///
/// d3 splits the correction by degree (`bias`: the hub moves less). Those pulls are not
/// equal and opposite, so they are not the gradient of any energy, and a layout under them
/// can turn forever: d3 stops because its alpha cools to zero, but this engine runs to rest.
/// With the bias, Les Misérables (seed 4) was still swirling at 0.6 units a step after
/// 5,000 steps, and 2 of 12 seeded runs of it and the karate club never settled; with equal
/// halves all 16 settled in 128-463 steps (`forcelayout bench --graph FILE --settle`). A
/// hub still moves less: its links are weak (`1 / min(degree)`), and it is pulled every way.
///
/// Every cell sums its own links (each link is computed once from either end), so chunks of
/// cells run on any core, in the same order: serial and parallel agree bit for bit.
struct LinkForce {
    /// Cells per work item.
    static let chunkSize = 2048
    static let parallelThreshold = 8192

    /// The rest length of a link without its own (`Parameters.edgeLength`).
    let length: Double
    /// Multiplies every link's strength (`Parameters.linkStrength`).
    let strength: Double

    /// Adds each cell's pull to `fx`, `fy` (as long as the cells).
    func add(_ links: PreparedLinks, xs: [Double], ys: [Double], parallel: Bool?,
             fx: inout [Double], fy: inout [Double]) {
        let n = xs.count
        fx.withUnsafeMutableBufferPointer { fx in
        fy.withUnsafeMutableBufferPointer { fy in
            let outX = DisjointBuffer(fx), outY = DisjointBuffer(fy)
            // Each chunk writes the forces of its own cells, and no others.
            let length = self.length, strength = self.strength
            forEachChunk(of: n, size: Self.chunkSize, parallel: parallel ?? (n >= Self.parallelThreshold)) { _, cells in
                for i in cells {
                    let pull = Self.pull(on: i, links, xs, ys, length: length, strength: strength)
                    outX[i] += pull.x
                    outY[i] += pull.y
                }
            }
        }}
    }

    /// The sum of cell i's links' pulls on it.
    @inline(__always)
    static func pull(on i: Int, _ links: PreparedLinks, _ xs: [Double], _ ys: [Double], length: Double,
                     strength: Double) -> (x: Double, y: Double) {
        var x = 0.0, y = 0.0
        for slot in Int(links.offsets[i])..<Int(links.offsets[i + 1]) {
            let k = Int(links.incident[slot])
            let a = Int(links.source[k]), b = Int(links.target[k])
            let dx = xs[b] - xs[a], dy = ys[b] - ys[a]
            let distance = (dx * dx + dy * dy).squareRoot()
            // Coincident ends have no direction; the repulsion parts them first.
            guard distance > 0, distance.isFinite else { continue }
            let own = links.distance[k]
            let rest = own.isNaN ? length : own
            let f = (distance - rest) / distance * links.strength[k] * strength
            // The target moves back along (dx, dy) by half, the source forward by half.
            let share = i == b ? -0.5 : 0.5
            x += dx * f * share
            y += dy * f * share
        }
        return (x, y)
    }
}
