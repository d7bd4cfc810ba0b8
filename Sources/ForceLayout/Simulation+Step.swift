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
    @discardableResult
    public func step() -> StepReport {
        advance(parallel: nil)
    }

    /// `step()` with the force path forced serial or parallel (nil: by size), for tests.
    @discardableResult
    func advance(parallel: Bool?) -> StepReport {
        let stiffness = parameters.stiffness
        let bound = maxStep
        let collide = parameters.collide
        computeRepulsion(parallel: parallel)
        if collide {
            startX = xs
            startY = ys
        } else if contactsHeld {
            motion.releaseContacts()
            contactsHeld = false
        }

        var (maxMove, totalMove, movable, rest) = integrate(stiffness: stiffness, bound: bound, collide: collide)
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
            Collision(size: parameters.cellSize, tick: tick)
                .polish(tree: &tree, xs: &xs, ys: &ys, ids: ids, pinned: pinned)
        }
        lastReport = report
        return report
    }

    /// p += gain · F for every free cell, bounded by `bound`, with the swinging damping.
    /// Returns the largest and total displacement, how many cells could move, and the
    /// largest step rest is judged by (see `Rest`); with `collide`, what damping withheld
    /// from each stale cell goes to `withheld`, to be added to its movement after the
    /// collisions. Works through unsafe buffers: element-wise access to a class's arrays
    /// would pay an exclusivity check per element.
    private func integrate(stiffness: Double, bound: Double, collide: Bool)
        -> (maxMove: Double, totalMove: Double, movable: Int, rest: Double) {
        var maxMove = 0.0, totalMove = 0.0, maxRest = 0.0, movable = 0
        let n = count
        let step = tick, since = forcesSince
        withheld.removeAll(keepingCapacity: true)
        if collide { withheld.append(contentsOf: repeatElement(0, count: n)) }
        withIntegrationBuffers { forceX, forceY, pinned, xs, ys, withheld in
        motion.withBuffers { lastDX, lastDY, gains, pushX, pushY, learnedAt in
            for i in 0..<n where !pinned[i] {
                movable += 1
                // With collisions, the push of a cell's contacts acts as one more force.
                let fx = forceX[i] + springForce(xs[i], stiffness: stiffness) + pushX[i]
                let fy = forceY[i] + springForce(ys[i], stiffness: stiffness) + pushY[i]
                // Swinging: a cell whose step reverses its last one overshot; its gain (and
                // this step) shrink. Cells that keep their course recover toward p += F.
                var gain = gains[i]
                var d = boundedDisplacement(fx: fx * gain, fy: fy * gain, maxStep: bound)
                if Damping.swing(&gains[i], dx: d.dx, dy: d.dy, lastDX: lastDX[i], lastDY: lastDY[i],
                                 learnedAt: &learnedAt[i], since: since, step: step) {
                    gain = gains[i]  // the step is taken again at the new gain
                    d = boundedDisplacement(fx: fx * gain, fy: fy * gain, maxStep: bound)
                }
                (lastDX[i], lastDY[i]) = (d.dx, d.dy)
                let nx = xs[i] + d.dx, ny = ys[i] + d.dy
                // |d| <= maxStep keeps finite positions finite except near ±1.8e308; stay put then.
                guard nx.isFinite, ny.isFinite else { continue }
                (xs[i], ys[i]) = (nx, ny)
                maxMove = Swift.max(maxMove, d.length)
                totalMove += d.length
                let rest = Rest.step(damped: d.length, gain: gain, learned: learnedAt[i] > since,
                                     fx: fx, fy: fy, bound: bound)
                maxRest = Swift.max(maxRest, rest)
                if collide { withheld[i] = Swift.max(0, rest - d.length) }
            }
        }}
        return (maxMove, totalMove, movable, maxRest)
    }

    /// The arrays an integration pass reads and writes, as buffers.
    private func withIntegrationBuffers(_ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>,
                                                 UnsafeBufferPointer<Bool>, UnsafeMutableBufferPointer<Double>,
                                                 UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>) -> Void) {
        forceX.withUnsafeBufferPointer { forceX in
        forceY.withUnsafeBufferPointer { forceY in
        pinned.withUnsafeBufferPointer { pinned in
        xs.withUnsafeMutableBufferPointer { xs in
        ys.withUnsafeMutableBufferPointer { ys in
        withheld.withUnsafeMutableBufferPointer { withheld in
            body(forceX, forceY, pinned, xs, ys, withheld)
        }}}}}}
    }

    /// Pushes overlapping cells apart, remembers each cell's push for the next step (warm
    /// start: contacts then carry their load without being re-solved from scratch), and
    /// returns the step's largest and total movement, collisions included, and the largest
    /// movement plus what damping withheld (see `Rest`).
    private func resolveCollisions() -> (maxMove: Double, totalMove: Double, rest: Double) {
        let beforeX = xs, beforeY = ys
        Collision(size: parameters.cellSize, tick: tick)
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
