import XCTest
@testable import ForceLayout

final class RobustnessTests: XCTestCase {
    /// Every corner of stiffness x charge x cellSize (and both threshold extremes), with
    /// coincident cells, far-apart cells and pinned cells at the edge of the finite range:
    /// positions stay finite and no step moves a cell further than `maxStep`.
    func testExtremeParametersStayFiniteAndBounded() throws {
        for stiffness in [Double.leastNonzeroMagnitude, 1] {
            for charge in [0.0, 1000] {
                for cellSize in [1.0, 200] {
                    for threshold in [0.0, 1e6] {
                        var p = Parameters.defaults
                        p.stiffness = stiffness
                        p.charge = charge
                        p.cellSize = cellSize
                        p.threshold = threshold
                        p.theta = 2
                        try checkStaysFiniteAndBounded(p)
                    }
                }
            }
        }
    }

    private func checkStaysFiniteAndBounded(_ p: Parameters) throws {
        let label = "stiffness \(p.stiffness) charge \(p.charge) cellSize \(p.cellSize) threshold \(p.threshold)"
        let sim = Simulation(parameters: p, seed: 11)
        sim.add(count: 8, spawn: .center)
        sim.add(count: 3, spawn: .point(x: 1e6, y: -1e6))
        sim.add(count: 3, spawn: .point(x: 0.5, y: 1e-300))
        sim.add(count: 4, spawn: .random)
        let far = sim.add(count: 3, spawn: .center)
        try sim.pin(far[0], x: 1.7e308, y: -1.7e308)
        try sim.pin(far[1], x: -1.7e308, y: 1.7e308)
        try sim.pin(far[2], x: 0, y: 0)   // coincident with the cells at the center
        let bound = sim.maxStep
        XCTAssertTrue(bound.isFinite && bound > 0, label)
        for _ in 0..<200 {
            let bx = sim.xs, by = sim.ys
            let report = sim.step()
            XCTAssertTrue(report.maxMove.isFinite && report.totalMove.isFinite, label)
            XCTAssertTrue(allFinite(sim), label)
            guard allFinite(sim) else { return }
            for i in 0..<sim.count {
                let dx = sim.xs[i] - bx[i], dy = sim.ys[i] - by[i]
                let move = (dx * dx + dy * dy).squareRoot()
                // Rounding of x + dx adds up to an ulp of the coordinate itself.
                let slack = 4 * max(bx[i].magnitude, by[i].magnitude).ulp
                XCTAssertLessThanOrEqual(move, bound * (1 + 1e-12) + slack, label)
            }
            XCTAssertLessThanOrEqual(report.maxMove, bound, label)
        }
        XCTAssertNotNil(sim.contentBounds(), label)
    }

    func testBoundedDisplacementKeepsDirectionAndSanitises() {
        let d = boundedDisplacement(fx: 30, fy: 40, maxStep: 10)
        XCTAssertEqual(d.dx, 6, accuracy: 1e-12)
        XCTAssertEqual(d.dy, 8, accuracy: 1e-12)
        XCTAssertEqual(d.length, 10)
        let small = boundedDisplacement(fx: 0.3, fy: -0.4, maxStep: 10)
        XCTAssertEqual(small.dx, 0.3)
        XCTAssertEqual(small.dy, -0.4)
        XCTAssertEqual(small.length, 0.5, accuracy: 1e-15)
        let huge = boundedDisplacement(fx: 1.7e308, fy: 1.7e308, maxStep: 2)
        XCTAssertEqual(huge.length, 2)
        XCTAssertEqual(huge.dx, 2.squareRoot(), accuracy: 1e-12)
        let inf = boundedDisplacement(fx: -.infinity, fy: 3, maxStep: 2)
        XCTAssertEqual(inf.dx, -2)
        XCTAssertEqual(inf.dy, 0)
        XCTAssertEqual(inf.length, 2)
        let both = boundedDisplacement(fx: .infinity, fy: -.infinity, maxStep: 2)
        XCTAssertEqual(both.dx, 2.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(both.dy, -(2.squareRoot()), accuracy: 1e-12)
        let nan = boundedDisplacement(fx: .nan, fy: 1, maxStep: 2)
        XCTAssertEqual(nan.length, 0)
        XCTAssertEqual(nan.dx, 0)
    }

    func testMaxStepDefaultFollowsCellSizeAndCanBeSet() {
        let sim = Simulation()
        XCTAssertEqual(sim.maxStep, 10)
        sim.parameters.cellSize = 1
        XCTAssertEqual(sim.maxStep, 2)
        sim.parameters.cellSize = 200
        XCTAssertEqual(sim.maxStep, 100)
        sim.maxStep = 3
        XCTAssertEqual(sim.maxStep, 3)
        sim.maxStep = .nan
        XCTAssertEqual(sim.maxStep, 100)
        sim.maxStep = -1
        XCTAssertEqual(sim.maxStep, 100)
    }

    func testOutOfRangeParametersDoNotPoisonPositions() {
        var p = Parameters.defaults
        p.charge = .infinity
        p.stiffness = .nan
        let sim = Simulation(parameters: p)
        sim.add(count: 5)
        for _ in 0..<20 { sim.step() }
        XCTAssertTrue(allFinite(sim))
    }
}
