import Foundation

/// The virial tensors of one component under the spring-electrical model: the repulsion's
/// R = Σ (x − c) ⊗ F_rep and the links' S = Σ w·|d|/K · d ⊗ d (the pull's virial, negated),
/// and the linear map about the centroid c that balances them (`map`). Their traces are the
/// scalar virials: a drawing scaled by s has a repulsion virial of V/s^(p−1) (a repulsion
/// of power p) and a links' virial of A·s³, so it balances at s = (V/A)^(1/(p+2)). Along one direction u the same holds for
/// uᵀRu and uᵀSu, roughly: a drawing stretched one way (coarse levels leave a grid 15–20%
/// longer one way than the other, and local steps take thousands of moves to undo it)
/// is out of balance along that direction alone, and scaling along the eigenvectors of
/// R − S, each by its own ratio, undoes it at once. Pure.
struct Virial: Equatable {
    /// The repulsion's power p.
    let power: Double
    var rxx = 0.0, rxy = 0.0, ryy = 0.0
    var sxx = 0.0, sxy = 0.0, syy = 0.0

    init(power: Double) { self.power = power }

    /// The repulsion `(fx, fy)` on a node `(dx, dy)` from the centroid.
    mutating func addRepulsion(dx: Double, dy: Double, fx: Double, fy: Double) {
        rxx += dx * fx
        ryy += dy * fy
        rxy += 0.5 * (dx * fy + dy * fx)
    }

    /// A link of weight `w` spanning `(dx, dy)`, natural length `k`. When the forces added
    /// with `addRepulsion` included the links' pull, their virial there was −S: this adds
    /// it back to R too.
    mutating func addLink(dx: Double, dy: Double, w: Double, k: Double, pullIncluded: Bool = false) {
        let f = w * (dx * dx + dy * dy).squareRoot() / k
        sxx += f * dx * dx
        syy += f * dy * dy
        sxy += f * dx * dy
        if pullIncluded {
            rxx += f * dx * dx
            ryy += f * dy * dy
            rxy += f * dx * dy
        }
    }

    /// A direction carries its own ratio only if its links' virial is at least this share of
    /// the whole: a drawing that is nearly a line (a path) has nothing to balance across it.
    static let leastShare = 0.05
    /// How far one map may scale: the ratios are a model of the forces, not the forces.
    static let limits = 0.25...4.0

    /// The map `(a, b, c)` (x' = a·x + b·y, y' = b·x + c·y about the centroid) that brings
    /// the drawing to balance; nil when there is nothing to balance (no links' pull, or no
    /// repulsion).
    func map() -> (a: Double, b: Double, c: Double)? {
        let traceR = rxx + ryy, traceS = sxx + syy
        guard traceR > 0, traceS > 0 else { return nil }
        let exponent = 1 / (power + 2)
        let whole = Self.clamped(Foundation.pow(traceR / traceS, exponent))
        // The eigenvectors of the symmetric T = R − S: (cos θ, sin θ) and (−sin θ, cos θ).
        let theta = 0.5 * Foundation.atan2(2 * (rxy - sxy), (rxx - sxx) - (ryy - syy))
        let (cs, sn) = (Foundation.cos(theta), Foundation.sin(theta))
        func factor(_ ux: Double, _ uy: Double) -> Double {
            let r = ux * ux * rxx + 2 * ux * uy * rxy + uy * uy * ryy
            let s = ux * ux * sxx + 2 * ux * uy * sxy + uy * uy * syy
            guard s >= Self.leastShare * traceS, r > 0 else { return whole }
            return Self.clamped(Foundation.pow(r / s, exponent))
        }
        let f1 = factor(cs, sn), f2 = factor(-sn, cs)
        // f1·u1u1ᵀ + f2·u2u2ᵀ.
        return (f1 * cs * cs + f2 * sn * sn, (f1 - f2) * cs * sn, f1 * sn * sn + f2 * cs * cs)
    }

    private static func clamped(_ value: Double) -> Double {
        Swift.min(limits.upperBound, Swift.max(limits.lowerBound, value))
    }
}
