/// One move of the graph model: every free node steps along its force divided by its
/// stiffness (`SpringElectrical`), plus its last move while the force agrees with it, at
/// most the step length (`StepLength`), and the pass reports the energy
/// (Σ|F|², which `StepLength` adapts to) and the moves. Fixed chunks combined in order, so
/// serial and parallel runs agree bit for bit.
struct GraphMotion {
    static let chunkSize = 2048
    static let parallelThreshold = 8192
    /// The least stiffness divided by: a node whose links are slack moves by its force.
    static let stiffnessFloor = 1.0
    /// How much of a node's last move carries into the next while its force agrees with it
    /// (heavy-ball momentum): a smooth, slow drift, like a whole drawing growing to its
    /// size, speeds up about tenfold, and a node that overshoots stops carrying at once.
    static let momentum = 0.9

    struct Totals: Sendable {
        var energy = 0.0, maxMove = 0.0, totalMove = 0.0, movable = 0

        mutating func add(_ other: Totals) {
            energy += other.energy
            maxMove = Swift.max(maxMove, other.maxMove)
            totalMove += other.totalMove
            movable += other.movable
        }
    }

    let step: Double

    /// Moves the nodes in `xs`, `ys` (not those `pinned`, if given) by the forces `fx`, `fy`
    /// and the scratch's stiffness, remembering each move in the scratch's `vx`, `vy`.
    func move(xs: inout [Double], ys: inout [Double], fx: [Double], fy: [Double], scratch: inout GraphScratch,
              pinned: [Bool]?, parallel: Bool?) -> Totals {
        let n = xs.count
        if scratch.vx.count != n {
            scratch.vx = [Double](repeating: 0, count: n)
            scratch.vy = scratch.vx
        }
        var parts = [Totals](repeating: Totals(), count: (n + Self.chunkSize - 1) / Self.chunkSize)
        let step = self.step
        fx.withUnsafeBufferPointer { fx in
        fy.withUnsafeBufferPointer { fy in
        scratch.stiffness.withUnsafeBufferPointer { stiffness in
        (pinned ?? []).withUnsafeBufferPointer { pinned in
        scratch.vx.withUnsafeMutableBufferPointer { vx in
        scratch.vy.withUnsafeMutableBufferPointer { vy in
        xs.withUnsafeMutableBufferPointer { xs in
        ys.withUnsafeMutableBufferPointer { ys in
        parts.withUnsafeMutableBufferPointer { parts in
            let buffers = Buffers(fx: DisjointBuffer(reading: fx), fy: DisjointBuffer(reading: fy),
                                  stiffness: DisjointBuffer(reading: stiffness), pinned: DisjointBuffer(reading: pinned),
                                  xs: DisjointBuffer(xs), ys: DisjointBuffer(ys),
                                  vx: DisjointBuffer(vx), vy: DisjointBuffer(vy))
            let out = DisjointBuffer(parts)
            // Each chunk moves its own nodes and writes its own slot of `parts`.
            forEachChunk(of: n, size: Self.chunkSize, parallel: parallel ?? (n >= Self.parallelThreshold)) { chunk, nodes in
                out[chunk] = Self.move(nodes, buffers, step: step)
            }
        }}}}}}}}}
        return parts.reduce(into: Totals()) { $0.add($1) }
    }

    /// The arrays a move reads (forces, stiffness, pins: none when empty) and writes
    /// (positions, last moves), shared by its chunks; each chunk writes only its own nodes.
    private struct Buffers: Sendable {
        let fx, fy, stiffness: DisjointBuffer<Double>
        let pinned: DisjointBuffer<Bool>
        let xs, ys, vx, vy: DisjointBuffer<Double>
    }

    /// Moves the free nodes of one chunk, `nodes`, at most `step` each; their totals.
    private static func move(_ nodes: Range<Int>, _ buffers: Buffers, step: Double) -> Totals {
        let fx = buffers.fx, fy = buffers.fy, stiffness = buffers.stiffness, pinned = buffers.pinned
        let xs = buffers.xs, ys = buffers.ys, vx = buffers.vx, vy = buffers.vy
        let anyPinned = pinned.count > 0
        var totals = Totals()
        for i in nodes where !(anyPinned && pinned[i]) {
            totals.movable += 1
            let f2 = fx[i] * fx[i] + fy[i] * fy[i]
            totals.energy += f2
            guard f2 > 0, f2.isFinite else { continue }
            let scale = 1 / Swift.max(stiffness[i], Self.stiffnessFloor)
            var dx = fx[i] * scale, dy = fy[i] * scale
            // Momentum: the last move carries on while the force agrees with it.
            if dx * vx[i] + dy * vy[i] > 0 {
                dx += Self.momentum * vx[i]
                dy += Self.momentum * vy[i]
            }
            var length = (dx * dx + dy * dy).squareRoot()
            if length > step {
                dx *= step / length
                dy *= step / length
                length = step
            }
            let nx = xs[i] + dx, ny = ys[i] + dy
            guard nx.isFinite, ny.isFinite else { continue }
            vx[i] = dx
            vy[i] = dy
            xs[i] = nx
            ys[i] = ny
            totals.maxMove = Swift.max(totals.maxMove, length)
            totals.totalMove += length
        }
        return totals
    }
}
