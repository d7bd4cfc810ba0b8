extension Simulation {
    /// Fills `forceX`, `forceY` with the repulsion: the exact pair sum (the article's model)
    /// when `theta` is 0, else Barnes-Hut over a quadtree rebuilt for this step.
    func computeRepulsion(parallel: Bool?) {
        let theta = parameters.theta
        guard theta.isFinite, theta > 0 else {
            Coulomb(charge: parameters.charge, tick: tick).forces(
                xs: xs, ys: ys, ids: ids, pinned: pinned, parallel: parallel,
                fx: &forceX, fy: &forceY)
            return
        }
        xs.withUnsafeBufferPointer { px in
            ys.withUnsafeBufferPointer { py in tree.build(xs: px, ys: py) }
        }
        BarnesHut(charge: parameters.charge, theta: theta, tick: tick).forces(
            tree: tree, xs: xs, ys: ys, ids: ids, pinned: pinned, parallel: parallel,
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
        let stiffness = parameters.stiffness.isFinite ? parameters.stiffness : 0
        let bound = maxStep
        computeRepulsion(parallel: parallel)

        let collide = parameters.collide
        if collide {
            startX = xs
            startY = ys
        }
        var maxMove = 0.0, totalMove = 0.0
        var movable = 0
        for i in 0..<count where !pinned[i] {
            movable += 1
            let fx = forceX[i] + springForce(xs[i], stiffness: stiffness)
            let fy = forceY[i] + springForce(ys[i], stiffness: stiffness)
            var d = boundedDisplacement(fx: fx * gain[i], fy: fy * gain[i], maxStep: bound)
            // Swinging: a cell whose step reverses its last one overshot; halve its gain
            // (and this step). Cells that keep their course recover toward the plain p += F.
            if d.dx * lastDX[i] + d.dy * lastDY[i] < 0 {
                gain[i] = Swift.max(Damping.minimumGain, gain[i] * Damping.decrease)
                d = boundedDisplacement(fx: fx * gain[i], fy: fy * gain[i], maxStep: bound)
            } else {
                gain[i] = Swift.min(1, gain[i] * Damping.increase)
            }
            lastDX[i] = d.dx
            lastDY[i] = d.dy
            let nx = xs[i] + d.dx, ny = ys[i] + d.dy
            // |d| <= maxStep keeps finite positions finite except beyond ~1.8e308; stay put then.
            guard nx.isFinite, ny.isFinite else { continue }
            xs[i] = nx
            ys[i] = ny
            maxMove = Swift.max(maxMove, d.length)
            totalMove += d.length
        }
        if collide {
            Collision(size: parameters.cellSize, tick: tick)
                .resolve(tree: &tree, xs: &xs, ys: &ys, ids: ids, pinned: pinned)
            // What a cell moved is where it ended up, collisions included.
            maxMove = 0
            totalMove = 0
            for i in 0..<count where !pinned[i] {
                let dx = xs[i] - startX[i], dy = ys[i] - startY[i]
                let length = (dx * dx + dy * dy).squareRoot()
                maxMove = Swift.max(maxMove, length)
                totalMove += length
            }
        }
        tick += 1
        let threshold = parameters.threshold
        let report = StepReport(
            maxMove: maxMove, totalMove: totalMove,
            settled: movable == 0 || maxMove < threshold)
        lastReport = report
        return report
    }
}
