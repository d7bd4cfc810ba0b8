import XCTest
@testable import ForceLayout

/// The laws' far-field expansions against the exact sum of their pair forces, and the graph
/// law's Barnes-Hut against its exact sum.
final class RepulsionLawTests: XCTestCase {
    /// 40 cells scattered within 1 of (0.3, −0.2), unevenly (so the quadrupole matters).
    private func cluster() -> [(x: Double, y: Double)] {
        var rng = SeededRandom(seed: 11)
        return (0..<40).map { _ in
            (0.3 + Double.random(in: -1...1, using: &rng), -0.2 + 0.4 * Double.random(in: -1...1, using: &rng))
        }
    }

    /// Mass, center of mass and the p = 2 quadrupole as `NodeMoments` makes them.
    private func node(_ points: [(x: Double, y: Double)]) -> PackedNode {
        var tree = QuadTree()
        let xs = points.map(\.x), ys = points.map(\.y)
        xs.withUnsafeBufferPointer { bx in ys.withUnsafeBufferPointer { by in tree.build(xs: bx, ys: by) } }
        return tree.nodes[0]
    }

    private func errors<Law: RepulsionLaw>(_ law: Law.Type) -> (expansion: Double, monopole: Double) {
        let points = cluster(), root = node(points)
        var worst = (expansion: 0.0, monopole: 0.0)
        for angle in stride(from: 0.0, to: 6.28, by: 0.5) {
            let x = 12 * Foundation.cos(angle), y = 12 * Foundation.sin(angle)
            var exact = (x: 0.0, y: 0.0)
            for p in points {
                let f = Law.pair(dx: x - p.x, dy: y - p.y, strength: 1, id: 1, other: 2, tick: 0)
                exact.x += f.x
                exact.y += f.y
            }
            let dx = x - root.massX, dy = y - root.massY, d2 = dx * dx + dy * dy
            let full = Law.far(dx: dx, dy: dy, d2: d2, mass: root.mass, qxx: root.qxx, qyy: root.qyy, qxy: root.qxy)
            let mono = Law.far(dx: dx, dy: dy, d2: d2, mass: root.mass, qxx: 0, qyy: 0, qxy: 0)
            let size = (exact.x * exact.x + exact.y * exact.y).squareRoot()
            func error(_ f: (x: Double, y: Double)) -> Double {
                ((f.x - exact.x) * (f.x - exact.x) + (f.y - exact.y) * (f.y - exact.y)).squareRoot() / size
            }
            worst.expansion = Swift.max(worst.expansion, error(full))
            worst.monopole = Swift.max(worst.monopole, error(mono))
        }
        return worst
    }

    func testTheCoulombExpansionIsSecondOrder() {
        let e = errors(InverseSquare.self)
        XCTAssertLessThan(e.expansion, 1e-3)
        XCTAssertLessThan(e.expansion * 5, e.monopole, "the quadrupole term is right, not just small")
    }

    func testTheGraphLawsExpansionIsSecondOrder() {
        let e = errors(InverseFiveHalves.self)
        XCTAssertLessThan(e.expansion, 1e-3)
        XCTAssertLessThan(e.expansion * 5, e.monopole, "the quadrupole term is right, not just small")
    }

    func testSinglePrecisionLanesAgreeWithDouble() {
        let root = node(cluster())
        let dx = 9.0 - root.massX, dy = -5.0 - root.massY, d2 = dx * dx + dy * dy
        let wide = InverseFiveHalves.far(dx: Lanes(repeating: Float(dx)), dy: Lanes(repeating: Float(dy)),
                                         rinv: Lanes(repeating: Float(1 / d2.squareRoot())),
                                         mass: Lanes(repeating: Float(root.mass)), qxx: Lanes(repeating: Float(root.qxx)),
                                         qyy: Lanes(repeating: Float(root.qyy)), qxy: Lanes(repeating: Float(root.qxy)))
        let narrow = InverseFiveHalves.far(dx: dx, dy: dy, d2: d2, mass: root.mass, qxx: root.qxx, qyy: root.qyy,
                                           qxy: root.qxy)
        XCTAssertEqual(Double(wide.x[0]), narrow.x, accuracy: 1e-5 * Swift.abs(narrow.x))
        XCTAssertEqual(Double(wide.y[0]), narrow.y, accuracy: 1e-5 * Swift.abs(narrow.y))
    }

    /// Barnes-Hut under the graph law at the graph model's theta, against the exact sum.
    func testGraphLawBarnesHutIsWithinOnePercent() {
        var rng = SeededRandom(seed: 4)
        let n = 3000
        let xs = (0..<n).map { _ in Double.random(in: -800...800, using: &rng) }
        let ys = (0..<n).map { _ in Double.random(in: -800...800, using: &rng) }
        let ids = (1...n).map { CellID($0) }
        var tree = QuadTree()
        xs.withUnsafeBufferPointer { bx in ys.withUnsafeBufferPointer { by in tree.build(xs: bx, ys: by) } }
        var fx: [Double] = [], fy: [Double] = []
        BarnesHut<InverseFiveHalves>(strength: 1, theta: 0.9, tick: 0)
            .forces(tree: tree, ids: ids, pinned: [Bool](repeating: false, count: n), fx: &fx, fy: &fy)
        var total = 0.0
        for i in 0..<n {
            var ex = 0.0, ey = 0.0
            for j in 0..<n where j != i {
                let f = InverseFiveHalves.pair(dx: xs[i] - xs[j], dy: ys[i] - ys[j], strength: 1, id: ids[i],
                                               other: ids[j], tick: 0)
                ex += f.x
                ey += f.y
            }
            total += ((fx[i] - ex) * (fx[i] - ex) + (fy[i] - ey) * (fy[i] - ey)).squareRoot() / (ex * ex + ey * ey).squareRoot()
        }
        XCTAssertLessThan(total / Double(n), 0.01)
    }
}

final class ReciprocalSquareRootTests: XCTestCase {
    func testTheEstimateIsWithinFiveMillionths() {
        var worst = 0.0
        var x: Float = 1e-3
        while x < 1e9 {
            let lanes = Lanes(repeating: x).reciprocalSquareRoot()
            let exact = 1 / Double(x).squareRoot()
            worst = Swift.max(worst, Swift.abs(Double(lanes[0]) - exact) / exact)
            x *= 1.37
        }
        XCTAssertLessThan(worst, 5e-6)
    }
}
