/// Where `Simulation.add(count:spawn:)` places new cells.
public enum Spawn: Equatable, Sendable {
    /// Uniformly inside the current content bounds (or the fallback square, see `SpawnArea`).
    case random
    /// Exactly at the center (0, 0); coincident cells separate by the wiggle.
    case center
    /// Uniformly on the perimeter of the current content bounds (or the fallback square).
    case border
    /// Exactly at the given point; a non-finite coordinate is replaced by 0.
    case point(x: Double, y: Double)
}

/// Computes spawn positions; pure apart from the random source it is given.
enum SpawnArea {
    /// The rectangle new cells spawn in or around. The content bounds are used unless there
    /// are fewer than 2 cells or the bounds are thinner than one cell (a box that cannot hold
    /// a cell side by side); then a square around the center sized for the new cells.
    static func area(content: Bounds?, existing: Int, adding: Int, cellSize: Double) -> Bounds {
        if let b = content, existing >= 2,
           b.maxX - b.minX >= cellSize, b.maxY - b.minY >= cellSize {
            return b
        }
        let half = cellSize * Double(max(adding, 1)).squareRoot()
        return Bounds(minX: -half, minY: -half, maxX: half, maxY: half)
    }

    static func positions(
        count: Int, spawn: Spawn, area: () -> Bounds, rng: inout SeededRandom
    ) -> [(x: Double, y: Double)] {
        guard count > 0 else { return [] }
        switch spawn {
        case .center:
            return Array(repeating: (0, 0), count: count)
        case .point(let x, let y):
            let p = (x: x.isFinite ? x : 0, y: y.isFinite ? y : 0)
            return Array(repeating: p, count: count)
        case .random:
            let b = area()
            return (0..<count).map { _ in inside(b, rng: &rng) }
        case .border:
            let b = area()
            return (0..<count).map { _ in onPerimeter(b, rng: &rng) }
        }
    }

    static func inside(_ b: Bounds, rng: inout SeededRandom) -> (x: Double, y: Double) {
        let u = Double.random(in: 0...1, using: &rng)
        let v = Double.random(in: 0...1, using: &rng)
        return (lerp(b.minX, b.maxX, u), lerp(b.minY, b.maxY, v))
    }

    /// Uniform by arc length. Side lengths are taken at a quarter scale so that the
    /// perimeter of even the widest finite box does not overflow.
    static func onPerimeter(_ b: Bounds, rng: inout SeededRandom) -> (x: Double, y: Double) {
        let qw = b.maxX * 0.25 - b.minX * 0.25
        let qh = b.maxY * 0.25 - b.minY * 0.25
        let total = qw + qh
        // Each horizontal side takes this share of the perimeter (a point box: all of it).
        let horizontal = total > 0 ? 0.5 * qw / total : 0.25
        let vertical = 0.5 - horizontal
        var f = Double.random(in: 0..<1, using: &rng)
        let t = Double.random(in: 0...1, using: &rng)
        if f < horizontal { return (lerp(b.minX, b.maxX, t), b.minY) }
        f -= horizontal
        if f < vertical { return (b.maxX, lerp(b.minY, b.maxY, t)) }
        f -= vertical
        if f < horizontal { return (lerp(b.minX, b.maxX, t), b.maxY) }
        return (b.minX, lerp(b.minY, b.maxY, t))
    }
}
