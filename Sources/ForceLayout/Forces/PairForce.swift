/// What the exact sum and Barnes-Hut share: the Coulomb law for one pair, and the force
/// arrays the parallel chunks fill.
enum PairForce {
    /// The push on cell `id` from cell `other` at offset (dx, dy) = p(id) − p(other):
    /// |F| = charge³ / r² with r clamped to `Coulomb.minDistance`, and a deterministic wiggle
    /// when the two coincide.
    @inline(__always)
    static func exact(dx: Double, dy: Double, chargeCubed: Double, id: CellID, other: CellID, tick: Int) -> (x: Double, y: Double) {
        let minD = Coulomb.minDistance
        let d2 = dx * dx + dy * dy
        if d2 < Wiggle.epsilon * Wiggle.epsilon {
            let w = Wiggle.direction(for: id, awayFrom: other, tick: tick)
            let coincident = chargeCubed / (minD * minD)
            return (w.x * coincident, w.y * coincident)
        }
        // An infinite distance means an astronomically far cell: its force is ~0.
        guard d2.isFinite else { return (0, 0) }
        let r = d2.squareRoot()
        let rc = Swift.max(r, minD)
        let s = chargeCubed / (rc * rc * r)
        return (dx * s, dy * s)
    }
}

/// The two force arrays, moved together into the lock the parallel chunks copy through.
struct ForceBuffers: Sendable {
    var x: [Double]
    var y: [Double]

    /// Sets `fx`, `fy` to `count` zeros, keeping their capacity so a caller's scratch
    /// arrays are reused step after step.
    static func zero(_ fx: inout [Double], _ fy: inout [Double], count: Int) {
        fx.removeAll(keepingCapacity: true)
        fx.append(contentsOf: repeatElement(0, count: count))
        fy.removeAll(keepingCapacity: true)
        fy.append(contentsOf: repeatElement(0, count: count))
    }
}
