extension Simulation {
    /// Fills `forceX`, `forceY` with the repulsion: the exact pair sum (the article's model)
    /// when `theta` is 0, else Barnes-Hut over a quadtree rebuilt for this step.
    func computeRepulsion(parallel: Bool?) {
        let theta = parameters.theta
        guard theta > 0 else {
            Coulomb(charge: parameters.charge, tick: tick).forces(
                xs: xs, ys: ys, ids: ids, pinned: pinned, parallel: parallel,
                fx: &forceX, fy: &forceY)
            return
        }
        xs.withUnsafeBufferPointer { px in
            ys.withUnsafeBufferPointer { py in tree.build(xs: px, ys: py, parallel: parallel) }
        }
        BarnesHut(charge: parameters.charge, theta: theta, tick: tick).forces(
            tree: tree, ids: ids, pinned: pinned, parallel: parallel,
            fx: &forceX, fy: &forceY)
    }

    /// Applies the forces once (mass 1, time step 1: p += F, bounded by `maxStep`) and
    /// returns what moved. Pinned cells stay at their pin but still push the others.
    /// `parallel`: false steps on this thread alone (nil: in parallel when the layout is big).
    @discardableResult
    public func step(parallel: Bool? = nil) -> StepReport {
        advance(parallel: parallel)
    }

    /// `step()` with the forces and the integration forced serial or parallel (nil: by
    /// size), for tests.
    @discardableResult
    func advance(parallel: Bool?) -> StepReport {
        if usesGraphModel { return graphAdvance(parallel: parallel) }
        let stiffness = parameters.stiffness
        let bound = maxStep
        let collide = parameters.collide
        computeRepulsion(parallel: parallel)
        addLinkForces(parallel: parallel)
        if collide {
            startX = xs
            startY = ys
        } else if contactsHeld {
            motion.releaseContacts()
            contactsHeld = false
        }

        var (maxMove, totalMove, movable, rest) = integrate(stiffness: stiffness, bound: bound, collide: collide,
                                                            parallel: parallel)
        if collide {
            (maxMove, totalMove, rest) = resolveCollisions()
        }
        tick += 1
        let threshold = parameters.threshold
        let report = StepReport(
            maxMove: maxMove, totalMove: totalMove,
            settled: movable == 0 || rest < threshold, maxRestStep: rest)
        // The per-step sweeps leave contacts within a fraction of a unit; at rest, finish
        // the job so that no two cells overlap. Not counted as movement: it is a tidy-up.
        if collide && report.settled {
            Collision(size: parameters.cellSize, tick: tick, radii: collisionRadii())
                .polish(tree: &tree, xs: &xs, ys: &ys, ids: ids, pinned: pinned)
        }
        lastReport = report
        return report
    }

    /// The integration pass (`Integration`): moves every free cell and returns the largest
    /// and total displacement, how many cells could move, and the largest step rest is
    /// judged by. Works through unsafe buffers: element-wise access to a class's arrays
    /// would pay an exclusivity check per element.
    private func integrate(stiffness: Double, bound: Double, collide: Bool, parallel: Bool?)
        -> (maxMove: Double, totalMove: Double, movable: Int, rest: Double) {
        let n = count
        withheld.removeAll(keepingCapacity: true)
        if collide { withheld.append(contentsOf: repeatElement(0, count: n)) }
        let step = tick, since = forcesSince
        let totals = withIntegrationBuffers { cells in
            Integration(stiffness: stiffness, bound: bound, collide: collide, step: step, since: since,
                        cells: cells).run(count: n, parallel: parallel ?? (n >= Integration.parallelThreshold))
        }
        return (totals.maxMove, totals.totalMove, totals.movable, totals.maxRest)
    }

    /// The arrays an integration pass reads and writes, as buffers. The read-only ones are
    /// wrapped like the others: `DisjointBuffer` is how the chunks share memory, and they
    /// only read these.
    private func withIntegrationBuffers<R>(_ body: (IntegrationBuffers) -> R) -> R {
        forceX.withUnsafeBufferPointer { forceX in
        forceY.withUnsafeBufferPointer { forceY in
        pinned.withUnsafeBufferPointer { pinned in
        xs.withUnsafeMutableBufferPointer { xs in
        ys.withUnsafeMutableBufferPointer { ys in
        withheld.withUnsafeMutableBufferPointer { withheld in
        motion.withBuffers { lastDX, lastDY, gains, pushX, pushY, learnedAt in
            body(IntegrationBuffers(
                forceX: DisjointBuffer(reading: forceX), forceY: DisjointBuffer(reading: forceY),
                pinned: DisjointBuffer(reading: pinned),
                xs: DisjointBuffer(xs), ys: DisjointBuffer(ys), withheld: DisjointBuffer(withheld),
                lastDX: DisjointBuffer(lastDX), lastDY: DisjointBuffer(lastDY), gains: DisjointBuffer(gains),
                pushX: DisjointBuffer(pushX), pushY: DisjointBuffer(pushY), learnedAt: DisjointBuffer(learnedAt)))
        }}}}}}}
    }

    /// Pushes overlapping cells apart, remembers each cell's push for the next step (warm
    /// start: contacts then carry their load without being re-solved from scratch), and
    /// returns the step's largest and total movement, collisions included, and the largest
    /// movement plus what damping withheld (see `Rest`).
    private func resolveCollisions() -> (maxMove: Double, totalMove: Double, rest: Double) {
        let beforeX = xs, beforeY = ys
        Collision(size: parameters.cellSize, tick: tick, radii: collisionRadii())
            .resolve(tree: &tree, xs: &xs, ys: &ys, ids: ids, pinned: pinned)
        contactsHeld = true
        var maxMove = 0.0, totalMove = 0.0, rest = 0.0
        for i in 0..<count where !pinned[i] {
            motion.pushX[i] = Collision.pushDecay * motion.pushX[i] + (xs[i] - beforeX[i])
            motion.pushY[i] = Collision.pushDecay * motion.pushY[i] + (ys[i] - beforeY[i])
            let dx = xs[i] - startX[i], dy = ys[i] - startY[i]
            let length = (dx * dx + dy * dy).squareRoot()
            maxMove = Swift.max(maxMove, length)
            totalMove += length
            rest = Swift.max(rest, length + withheld[i])
        }
        return (maxMove, totalMove, rest)
    }
}
