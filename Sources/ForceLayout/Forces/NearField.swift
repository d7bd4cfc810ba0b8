extension BarnesHut {
    /// Squared distances under this (in single precision) are summed in double: the cell
    /// itself, and pairs that may be coincident and need the wiggle.
    static var nearDoubleBelow: Float { 0.01 }
    /// Squared distances at or beyond this are summed in double (r ≥ 1e6).
    static var nearSingleRange: Float { 1e12 }

    /// The push of the near cells on the cell at tree position `k`, per unit strength: the
    /// exact pair force, a block of `Lanes` cells at a time in single precision. The lanes
    /// too close or too far for single precision (the cell itself among them) are left out
    /// of the loop, which only notes their blocks, and summed afterwards with
    /// `RepulsionLaw.pair`: a call inside the loop would push its accumulators out of the
    /// registers.
    @inline(__always)
    func nearForce(on k: Int, _ view: TreeView, _ lists: borrowing InteractionLists) -> (x: Double, y: Double) {
        let (xv, yv) = lists.lanes(of: k, view)
        let near = lists.near, pending = lists.pending
        let count = lists.nearCount
        let minD = Float(Coulomb.minDistance)
        let lanes = Lanes.indices  // a local: a static would cost a swift_once per call
        var axv = Lanes.zero, ayv = Lanes.zero
        var noted = 0
        var j = 0
        while j < count {
            let dx = xv - near.lanes(0, j), dy = yv - near.lanes(1, j)
            let d2 = dx * dx + dy * dy
            let single = Self.nearSingle(d2)
            let use = single .& (lanes .< Float(count - j))  // the last block's padding adds nothing
            let r = d2.squareRoot()
            let rc = r.replacing(with: minD, where: r .< minD)
            let s = Law.scale(r: r, rc: rc)
            axv += (dx * s).replacing(with: 0, where: .!use)
            ayv += (dy * s).replacing(with: 0, where: .!use)
            if _slowPath(!single.isAll) {
                pending[noted] = Int32(j)
                noted &+= 1
            }
            j &+= Lanes.scalarCount
        }
        var ax = axv.wideSum, ay = ayv.wideSum
        for p in 0..<noted {
            let e = nearExact(on: k, block: Int(pending[p]), xv, yv, view, lists)
            ax += e.x
            ay += e.y
        }
        return (ax, ay)
    }

    /// The lanes whose pair single precision handles: not too close, not too far.
    @inline(__always)
    static func nearSingle(_ d2: Lanes) -> SIMDMask<Lanes.MaskStorage> {
        (d2 .>= nearDoubleBelow) .& (d2 .< nearSingleRange)
    }

    /// The lanes of `block` the loop left out, in double precision (neither the cell itself nor padding).
    private func nearExact(on k: Int, block: Int, _ xv: Lanes, _ yv: Lanes, _ view: TreeView,
                           _ lists: borrowing InteractionLists) -> (x: Double, y: Double) {
        let dx = xv - lists.near.lanes(0, block), dy = yv - lists.near.lanes(1, block)
        let single = Self.nearSingle(dx * dx + dy * dy)
        var ax = 0.0, ay = 0.0
        for lane in 0..<Lanes.scalarCount where !single[lane] {
            let j = Int(lists.nearSlot[block + lane])
            guard j >= 0, j != k, block + lane < lists.nearCount else { continue }
            let dx = view.xs[k] - view.xs[j], dy = view.ys[k] - view.ys[j]
            // Only a coincident pair needs the ids (for its wiggle); they are far in memory.
            let coincident = dx * dx + dy * dy < Wiggle.epsilon * Wiggle.epsilon
            let p = Law.pair(dx: dx, dy: dy, strength: 1,
                             id: coincident ? view.ids[Int(view.order[k])] : 0,
                             other: coincident ? view.ids[Int(view.order[j])] : 0, tick: tick)
            ax += p.x
            ay += p.y
        }
        return (ax, ay)
    }
}
