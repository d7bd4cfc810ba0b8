extension BarnesHut {
    /// The push of the far nodes on the cell at tree position `k`, per unit strength, each
    /// through its expansion (`RepulsionLaw.far`), distances clamped to `Coulomb.minDistance`.
    /// A block of `Lanes` nodes at a time in single precision; the blocks holding a node too
    /// far for single precision are noted and summed in double after the loop (a call inside
    /// it would spill its accumulators).
    @inline(__always)
    func farForce(on k: Int, _ view: TreeView, _ lists: borrowing InteractionLists) -> (x: Double, y: Double) {
        let (xv, yv) = lists.lanes(of: k, view)
        let far = lists.far, pending = lists.pending
        let count = lists.farCount
        let minD2 = Float(Coulomb.minDistance * Coulomb.minDistance)
        let lanes = Lanes.indices
        var axv = Lanes.zero, ayv = Lanes.zero
        var noted = 0
        var f = 0
        while f < count {
            let dx = xv - far.lanes(0, f), dy = yv - far.lanes(1, f)
            let d2 = dx * dx + dy * dy
            let single = d2 .< Self.singleRange
            let rinv = 1 / d2.replacing(with: minD2, where: d2 .< minD2).squareRoot()
            let push = Law.far(dx: dx, dy: dy, rinv: rinv, mass: far.lanes(2, f),
                               qxx: far.lanes(3, f), qyy: far.lanes(4, f), qxy: far.lanes(5, f))
            // The padding adds 0 anyway (massless); masking it too keeps LLVM from
            // scalarizing part of the block.
            let use = single .& (lanes .< Float(count - f))
            axv += push.x.replacing(with: 0, where: .!use)
            ayv += push.y.replacing(with: 0, where: .!use)
            if _slowPath(!single.isAll) {
                pending[noted] = Int32(f)
                noted &+= 1
            }
            f &+= Lanes.scalarCount
        }
        let e = farExact(on: k, noted: noted, xv, yv, view, lists)
        return (e.x + axv.wideSum, e.y + ayv.wideSum)
    }

    /// The nodes the loop left out of the `noted` blocks in `lists.pending`, in double precision.
    private func farExact(on k: Int, noted: Int, _ xv: Lanes, _ yv: Lanes, _ view: TreeView,
                          _ lists: borrowing InteractionLists) -> (x: Double, y: Double) {
        var ax = 0.0, ay = 0.0
        for p in 0..<noted {
            let block = Int(lists.pending[p])
            let dx = xv - lists.far.lanes(0, block), dy = yv - lists.far.lanes(1, block)
            let single = dx * dx + dy * dy .< Self.singleRange
            for lane in 0..<Lanes.scalarCount where !single[lane] && lists.farNode[block + lane] >= 0 {
                let e = Self.far(view.nodes[Int(lists.farNode[block + lane])], view.xs[k], view.ys[k])
                ax += e.x
                ay += e.y
            }
        }
        return (ax, ay)
    }

    /// One far node's push on a cell at (x, y) in double precision, per unit strength.
    static func far(_ node: PackedNode, _ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let dx = x - node.massX, dy = y - node.massY
        let d2 = Swift.max(dx * dx + dy * dy, Coulomb.minDistance * Coulomb.minDistance)
        // An infinite distance means an astronomically far node: its force is ~0.
        guard d2.isFinite else { return (0, 0) }
        return Law.far(dx: dx, dy: dy, d2: d2, mass: node.mass, qxx: node.qxx, qyy: node.qyy, qxy: node.qxy)
    }
}
