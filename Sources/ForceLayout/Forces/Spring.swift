/// Hooke's law toward the center (0, 0): F = stiffness * (0 - p), per axis.
@inline(__always)
func springForce(_ coordinate: Double, stiffness: Double) -> Double {
    -stiffness * coordinate
}
