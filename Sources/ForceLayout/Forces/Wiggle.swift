/// Coincident cells have no line between them, so the repulsion gets a pseudo-random
/// direction instead. It is a pure function of (smaller id, larger id, tick): deterministic,
/// safe to call from the parallel force loop, and antisymmetric (the lower id is pushed
/// along +dir, the higher along -dir) so the two cells separate.
enum Wiggle {
    /// Cells closer than this are treated as coincident.
    static let epsilon = 1e-6

    /// The unit direction pushing `id` away from `other`.
    @inline(__always)
    static func direction(for id: CellID, awayFrom other: CellID, tick: Int) -> (x: Double, y: Double) {
        let lo = Swift.min(id, other), hi = Swift.max(id, other)
        let d = unitDirection(lo: lo, hi: hi, tick: tick)
        return id == lo ? d : (-d.x, -d.y)
    }

    /// The direction for the lower id of the pair.
    static func unitDirection(lo: CellID, hi: CellID, tick: Int) -> (x: Double, y: Double) {
        var h = splitMix64(UInt64(truncatingIfNeeded: lo))
        h = splitMix64(h ^ UInt64(truncatingIfNeeded: hi))
        h = splitMix64(h ^ UInt64(truncatingIfNeeded: tick))
        // Rejection-sample the unit disk (uniform angle, no trigonometry needed); the
        // bounded retries fail with probability (1 - pi/4)^8 < 1e-5, then a fixed axis.
        for _ in 0..<8 {
            let x = unit(h >> 32), y = unit(h & 0xFFFF_FFFF)
            let r2 = x * x + y * y
            if r2 > 1e-6 && r2 <= 1 {
                let r = r2.squareRoot()
                return (x / r, y / r)
            }
            h = splitMix64(h)
        }
        return (1, 0)
    }

    /// Maps 32 random bits to [-1, 1).
    @inline(__always)
    private static func unit(_ bits: UInt64) -> Double {
        Double(bits) / 2_147_483_648.0 - 1
    }
}
