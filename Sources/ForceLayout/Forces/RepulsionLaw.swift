import Foundation

/// How a repulsion falls off with distance: two unit charges r apart push each other with
/// r̂ / rᵖ. The exact sum and Barnes-Hut read the law through this (`BarnesHut<Law>`, generic
/// and specialised, so each law's loops are its own); distances are clamped to
/// `Coulomb.minDistance`. A far node acts through its expansion about its center of mass:
/// the potential of a unit charge is φ(r) = 1/((p − 1) r^(p−1)), and a node's second-order
/// term is ½ rᵀ(Σ (p+1)·s sᵀ − |s|² I) r / r^(p+3) over its cells' offsets s. The tree keeps
/// the p = 2 tensor Q = Σ (3 s sᵀ − |s|² I) (`PackedNode`), whose trace is Σ |s|², so
/// every law derives its own tensor from it.
protocol RepulsionLaw {
    /// p.
    static var power: Double { get }
    /// s such that the push along the offset d is d·s, for |d| = r and rc = max(r, min
    /// distance), times `strength`.
    static func scale(strength: Double, r: Double, rc: Double) -> Double
    /// The same per unit strength, a block of lanes at a time.
    static func scale(r: Lanes, rc: Lanes) -> Lanes
    /// The push between two coincident cells, times `strength`: as if `Coulomb.minDistance` apart.
    static func coincident(strength: Double) -> Double
    /// 1/r^(p+1), from `rinv` = 1/r and `inv2` = 1/r² (a far node's monopole, per unit mass).
    static func falloff(rinv: Lanes, inv2: Lanes) -> Lanes
    /// The same in double precision, from `d2` = r².
    static func falloff(d2: Double) -> Double
}

extension RepulsionLaw {
    /// The push on cell `id` from cell `other` at offset (dx, dy) = p(id) − p(other), times
    /// `strength`, with a deterministic wiggle when the two coincide.
    @inline(__always)
    static func pair(dx: Double, dy: Double, strength: Double, id: CellID, other: CellID, tick: Int)
        -> (x: Double, y: Double) {
        let minD = Coulomb.minDistance
        let d2 = dx * dx + dy * dy
        if d2 < Wiggle.epsilon * Wiggle.epsilon {
            let w = Wiggle.direction(for: id, awayFrom: other, tick: tick)
            let coincident = coincident(strength: strength)
            return (w.x * coincident, w.y * coincident)
        }
        // An infinite distance means an astronomically far cell: its force is ~0.
        guard d2.isFinite else { return (0, 0) }
        let r = d2.squareRoot()
        let s = scale(strength: strength, r: r, rc: Swift.max(r, minD))
        return (dx * s, dy * s)
    }

    /// The far-field tensor Q′ = Σ ((p+1) s sᵀ − |s|² I) = (p+1)/3 · Q + ((p+1)/3 − 1) tr Q · I
    /// from the tree's p = 2 tensor Q (itself when p = 2).
    @inline(__always)
    static func tensor(_ qxx: Lanes, _ qyy: Lanes, _ qxy: Lanes) -> (xx: Lanes, yy: Lanes, xy: Lanes) {
        guard power != 2 else { return (qxx, qyy, qxy) }
        let a = Float((power + 1) / 3), b = Float((power + 1) / 3 - 1), trace = qxx + qyy
        return (a * qxx + b * trace, a * qyy + b * trace, a * qxy)
    }

    @inline(__always)
    static func tensor(_ qxx: Double, _ qyy: Double, _ qxy: Double) -> (xx: Double, yy: Double, xy: Double) {
        guard power != 2 else { return (qxx, qyy, qxy) }
        let a = (power + 1) / 3, b = (power + 1) / 3 - 1, trace = qxx + qyy
        return (a * qxx + b * trace, a * qyy + b * trace, a * qxy)
    }

    /// A far node's push per unit charge at offset d = (dx, dy) from its center of mass,
    /// `rinv` = 1/|d| (clamped), from its mass and p = 2 quadrupole (as `PackedNode` keeps
    /// them): F = M d/r^(p+1) − Q′d/r^(p+3) + (p+3)/2 (dᵀQ′d) d/r^(p+5).
    @inline(__always)
    static func far(dx: Lanes, dy: Lanes, rinv: Lanes, mass: Lanes, qxx: Lanes, qyy: Lanes, qxy: Lanes)
        -> (x: Lanes, y: Lanes) {
        let q = tensor(qxx, qyy, qxy)
        let inv2 = rinv * rinv
        let monopole = falloff(rinv: rinv, inv2: inv2)
        let quadrupole = monopole * inv2
        let qx = q.xx * dx + q.xy * dy
        let qy = q.xy * dx + q.yy * dy
        let radial = mass * monopole + Float((power + 3) / 2) * (dx * qx + dy * qy) * quadrupole * inv2
        return (dx * radial - qx * quadrupole, dy * radial - qy * quadrupole)
    }

    /// The same in double precision, from `d2` = |d|² (clamped).
    @inline(__always)
    static func far(dx: Double, dy: Double, d2: Double, mass: Double, qxx: Double, qyy: Double, qxy: Double)
        -> (x: Double, y: Double) {
        let q = tensor(qxx, qyy, qxy)
        let inv2 = 1 / d2
        let monopole = falloff(d2: d2)
        let quadrupole = monopole * inv2
        let qx = q.xx * dx + q.xy * dy
        let qy = q.xy * dx + q.yy * dy
        let radial = mass * monopole + (power + 3) / 2 * (dx * qx + dy * qy) * quadrupole * inv2
        return (dx * radial - qx * quadrupole, dy * radial - qy * quadrupole)
    }
}

/// p = 2, Coulomb's law in the plane: the article's model (`charge³ / r²`).
enum InverseSquare: RepulsionLaw {
    static var power: Double { 2 }

    @inline(__always)
    static func scale(strength: Double, r: Double, rc: Double) -> Double { strength / (rc * rc * r) }
    @inline(__always)
    static func scale(r: Lanes, rc: Lanes) -> Lanes { 1 / (rc * rc * r) }
    static func coincident(strength: Double) -> Double {
        strength / (Coulomb.minDistance * Coulomb.minDistance)
    }
    @inline(__always)
    static func falloff(rinv: Lanes, inv2: Lanes) -> Lanes { inv2 * rinv }
    @inline(__always)
    static func falloff(d2: Double) -> Double { 1 / d2 / d2.squareRoot() }
}

/// p = 5/2: the graph model's repulsion (`SpringElectrical`). Its push from far away is
/// weaker against the links than p = 2's, so a large drawing's rim is not squeezed against
/// its middle: at p = 2 a settled 100×100 grid's boundary links were about ¾ as long as its
/// inner ones (Graphviz documents `repulsiveforce` above its default as the cure for this
/// "warping"). p = 3 evens the grid too but draws a scale-free graph's hubs too tight;
/// `make bench-graphs` measured the three (README, "Layout quality").
enum InverseFiveHalves: RepulsionLaw {
    static var power: Double { 2.5 }

    @inline(__always)
    static func scale(strength: Double, r: Double, rc: Double) -> Double { strength / (rc * rc * rc.squareRoot() * r) }
    /// A second square root per pair made the near field, most of a step, twice as slow as
    /// p = 2's (measured with perf on a 100k mesh); an estimate of 1/√rc costs a few
    /// multiplications instead, within 5·10⁻⁶ of it (`Lanes.reciprocalSquareRoot`).
    @inline(__always)
    static func scale(r: Lanes, rc: Lanes) -> Lanes { rc.reciprocalSquareRoot() / (rc * rc * r) }
    static func coincident(strength: Double) -> Double {
        strength / (Coulomb.minDistance * Coulomb.minDistance * Coulomb.minDistance.squareRoot())
    }
    /// r^(−7/2) = r⁻⁴ · √r, with √x = x / √x (the estimate again).
    @inline(__always)
    static func falloff(rinv: Lanes, inv2: Lanes) -> Lanes { inv2 * rinv * rinv * rinv.reciprocalSquareRoot() }
    @inline(__always)
    static func falloff(d2: Double) -> Double { 1 / (d2 * d2.squareRoot() * Foundation.sqrt(d2.squareRoot())) }
}

extension Lanes {
    /// 1/√x for positive normal x, to within 5·10⁻⁶ relative: the classic estimate from the
    /// bit pattern (Lomont 2003's constant), refined by two Newton steps. Same operations in
    /// every lane and on every thread, so results stay bit for bit reproducible.
    @inline(__always)
    func reciprocalSquareRoot() -> Lanes {
        let bits = unsafeBitCast(self, to: MaskStorage.self)
        var y = unsafeBitCast(0x5f37_5a86 &- (bits &>> 1), to: Lanes.self)
        let half = self * 0.5
        y = y * (1.5 - half * y * y)
        y = y * (1.5 - half * y * y)
        return y
    }
}
