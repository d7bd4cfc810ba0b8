/// Turns a force into a displacement (mass 1, time step 1) no longer than `maxStep`,
/// keeping its direction. A non-finite force never reaches a position: NaN becomes no
/// movement, an infinite component becomes a full step along its sign.
@inline(__always)
func boundedDisplacement(fx: Double, fy: Double, maxStep: Double) -> (dx: Double, dy: Double, length: Double) {
    if fx.isNaN || fy.isNaN { return (0, 0, 0) }
    if fx.isInfinite || fy.isInfinite {
        let ux: Double = fx.isInfinite ? (fx > 0 ? 1 : -1) : 0
        let uy: Double = fy.isInfinite ? (fy > 0 ? 1 : -1) : 0
        let scale = maxStep / (ux * ux + uy * uy).squareRoot()
        return (ux * scale, uy * scale, maxStep)
    }
    let x = fx, y = fy
    // Normalise by the larger component first so the length itself cannot overflow.
    let m = Swift.max(Swift.abs(x), Swift.abs(y))
    if m == 0 { return (0, 0, 0) }
    let sx = x / m, sy = y / m
    let unitLength = (sx * sx + sy * sy).squareRoot()   // in [1, sqrt 2]
    let length = m * unitLength
    if length <= maxStep { return (x, y, length) }
    let scale = maxStep / unitLength
    return (sx * scale, sy * scale, maxStep)
}
