/// One integration pass over a range of cells: p += gain · F for every free cell, bounded
/// by `bound`, with the swinging damping (`Damping`). The cells are split into fixed chunks
/// whatever the thread count, and their figures combined in chunk order, so a serial and a
/// parallel pass agree bit for bit.
struct Integration: Sendable {
    /// Cells per work item.
    static let chunkSize = 2048
    /// From this many cells the chunks run on every core.
    static let parallelThreshold = 8192

    /// What a pass reports: the largest and total displacement, how many cells could move,
    /// and the largest step rest is judged by (see `Rest`).
    struct Totals: Sendable {
        var maxMove = 0.0, totalMove = 0.0, movable = 0, maxRest = 0.0

        mutating func add(_ other: Totals) {
            maxMove = Swift.max(maxMove, other.maxMove)
            totalMove += other.totalMove
            movable += other.movable
            maxRest = Swift.max(maxRest, other.maxRest)
        }
    }

    let stiffness: Double
    let bound: Double
    let collide: Bool
    /// This step, and the step the forces last changed at (see `Rest`).
    let step: Int
    let since: Int
    let cells: IntegrationBuffers

    /// Runs every chunk (on every core if `parallel`) and combines their totals.
    func run(count n: Int, parallel: Bool) -> Totals {
        var parts = [Totals](repeating: Totals(), count: (n + Self.chunkSize - 1) / Self.chunkSize)
        parts.withUnsafeMutableBufferPointer { parts in
            let out = DisjointBuffer(parts)
            // Work item `chunk` writes its own cells and its own slot of `parts`.
            forEachChunk(of: n, size: Self.chunkSize, parallel: parallel) { chunk, cells in
                out[chunk] = integrate(cells)
            }
        }
        return parts.reduce(into: Totals()) { $0.add($1) }
    }

    /// The pass over `range`; with `collide`, what damping withheld from each stale cell
    /// goes to `withheld`, to be added to its movement after the collisions.
    private func integrate(_ range: Range<Int>) -> Totals {
        var totals = Totals()
        let c = cells
        for i in range where !c.pinned[i] {
            totals.movable += 1
            // With collisions, the push of a cell's contacts acts as one more force.
            let fx = c.forceX[i] + springForce(c.xs[i], stiffness: stiffness) + c.pushX[i]
            let fy = c.forceY[i] + springForce(c.ys[i], stiffness: stiffness) + c.pushY[i]
            // Swinging: a cell whose step reverses its last one overshot; its gain (and
            // this step) shrink. Cells that keep their course recover toward p += F.
            var gain = c.gains[i]
            var d = boundedDisplacement(fx: fx * gain, fy: fy * gain, maxStep: bound)
            if Damping.swing(&c.gains.buffer[i], dx: d.dx, dy: d.dy, lastDX: c.lastDX[i], lastDY: c.lastDY[i],
                             learnedAt: &c.learnedAt.buffer[i], since: since, step: step) {
                gain = c.gains[i]  // the step is taken again at the new gain
                d = boundedDisplacement(fx: fx * gain, fy: fy * gain, maxStep: bound)
            }
            (c.lastDX[i], c.lastDY[i]) = (d.dx, d.dy)
            let nx = c.xs[i] + d.dx, ny = c.ys[i] + d.dy
            // |d| <= maxStep keeps finite positions finite except near ±1.8e308; stay put then.
            guard nx.isFinite, ny.isFinite else { continue }
            (c.xs[i], c.ys[i]) = (nx, ny)
            totals.maxMove = Swift.max(totals.maxMove, d.length)
            totals.totalMove += d.length
            let rest = Rest.step(damped: d.length, gain: gain, learned: c.learnedAt[i] > since,
                                 fx: fx, fy: fy, bound: bound)
            totals.maxRest = Swift.max(totals.maxRest, rest)
            if collide { c.withheld[i] = Swift.max(0, rest - d.length) }
        }
        return totals
    }
}

/// The arrays an integration pass reads (forces, pins) and writes (positions, damping
/// state), as buffers the chunks share, each touching only its own cells.
struct IntegrationBuffers: Sendable {
    let forceX, forceY: DisjointBuffer<Double>
    let pinned: DisjointBuffer<Bool>
    let xs, ys, withheld: DisjointBuffer<Double>
    let lastDX, lastDY, gains, pushX, pushY: DisjointBuffer<Double>
    let learnedAt: DisjointBuffer<Int>
}
