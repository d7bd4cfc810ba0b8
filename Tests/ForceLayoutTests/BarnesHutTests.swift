import XCTest
@testable import ForceLayout

final class BarnesHutTests: XCTestCase {
    /// Repulsion on every cell from the exact sum and from Barnes-Hut at `theta`.
    private func repulsions(cells: Int, theta: Double, seed: UInt64 = 3) -> (exact: [(Double, Double)], approx: [(Double, Double)]) {
        let simulation = Simulation(seed: seed)
        simulation.add(count: cells, spawn: .random)
        simulation.parameters.theta = 0
        simulation.computeRepulsion(parallel: nil)
        let exact = Array(zip(simulation.forceX, simulation.forceY))
        simulation.parameters.theta = theta
        simulation.computeRepulsion(parallel: nil)
        let approx = Array(zip(simulation.forceX, simulation.forceY))
        return (exact, approx)
    }

    func testMeanRelativeErrorAtDefaultThetaIsUnderTwoPercent() {
        let (exact, approx) = repulsions(cells: 2000, theta: 0.9)
        var total = 0.0
        for (e, a) in zip(exact, approx) {
            let error = ((a.0 - e.0) * (a.0 - e.0) + (a.1 - e.1) * (a.1 - e.1)).squareRoot()
            let magnitude = (e.0 * e.0 + e.1 * e.1).squareRoot()
            total += error / magnitude
        }
        let mean = total / Double(exact.count)
        XCTAssertLessThan(mean, 0.02, "mean relative error \(mean)")
    }

    func testSmallThetaIsCloserThanLargeTheta() {
        func meanError(_ theta: Double) -> Double {
            let (exact, approx) = repulsions(cells: 1000, theta: theta)
            return zip(exact, approx).map { e, a in
                ((a.0 - e.0) * (a.0 - e.0) + (a.1 - e.1) * (a.1 - e.1)).squareRoot() / (e.0 * e.0 + e.1 * e.1).squareRoot()
            }.reduce(0, +) / Double(exact.count)
        }
        XCTAssertLessThan(meanError(0.3), meanError(1.5))
    }

    func testThetaZeroIsTheExactPairSumBitForBit() {
        let simulation = Simulation(seed: 5)
        simulation.add(count: 300, spawn: .random)
        simulation.parameters.theta = 0
        simulation.computeRepulsion(parallel: false)
        let viaSimulation = (simulation.forceX, simulation.forceY)
        var fx: [Double] = [], fy: [Double] = []
        Coulomb(charge: simulation.parameters.charge, tick: simulation.tick).forces(
            xs: simulation.xs, ys: simulation.ys, ids: simulation.ids, pinned: simulation.pinned,
            parallel: false, fx: &fx, fy: &fy)
        XCTAssertEqual(viaSimulation.0, fx)
        XCTAssertEqual(viaSimulation.1, fy)
    }

    func testParallelAndSerialBarnesHutAgree() {
        let simulation = Simulation(seed: 9)
        simulation.add(count: 3000, spawn: .random)
        simulation.add(count: 20, spawn: .center)
        try? simulation.pin(5, x: 10, y: 10)
        simulation.computeRepulsion(parallel: false)
        let serial = (simulation.forceX, simulation.forceY)
        simulation.computeRepulsion(parallel: true)
        XCTAssertEqual(serial.0, simulation.forceX)
        XCTAssertEqual(serial.1, simulation.forceY)
    }

    func testCoincidentCellsStillSeparateWithTheTree() {
        let simulation = Simulation(seed: 1)
        simulation.add(count: 40, spawn: .center)
        for _ in 0..<200 { simulation.step() }
        let (_, closest) = LayoutQuality.overlaps(simulation)
        XCTAssertGreaterThan(closest, 1)
    }

    func testTreeHoldsEveryCellOnceAndMassesAddUp() {
        let simulation = Simulation(seed: 2)
        simulation.add(count: 5000, spawn: .random)
        simulation.add(count: 30, spawn: .point(x: 3, y: 3))
        var tree = QuadTree()
        simulation.xs.withUnsafeBufferPointer { xs in
            simulation.ys.withUnsafeBufferPointer { ys in tree.build(xs: xs, ys: ys) }
        }
        XCTAssertEqual(tree.order.count, simulation.count)
        XCTAssertEqual(Set(tree.order).count, simulation.count)
        XCTAssertEqual(tree.nodes[0].mass, Double(simulation.count))
        let meanX = simulation.xs.reduce(0, +) / Double(simulation.count)
        XCTAssertEqual(tree.nodes[0].massX, meanX, accuracy: 1e-6)
    }
}

final class BarnesHutAccuracyTests: XCTestCase {
    /// The figure the README quotes: the mean relative error against the exact sum at the
    /// default theta, on 2000 and 20000 random cells.
    func testMeanRelativeErrorAtDefaultThetaIsUnderOnePercent() {
        for cells in [2000, 20000] {
            let simulation = Simulation(seed: 3)
            simulation.add(count: cells, spawn: .random)
            simulation.parameters.theta = 0
            simulation.computeRepulsion(parallel: nil)
            let exact = Array(zip(simulation.forceX, simulation.forceY))
            simulation.parameters.theta = Parameters.defaults.theta
            simulation.computeRepulsion(parallel: nil)
            var total = 0.0
            for (e, a) in zip(exact, zip(simulation.forceX, simulation.forceY)) {
                let error = ((a.0 - e.0) * (a.0 - e.0) + (a.1 - e.1) * (a.1 - e.1)).squareRoot()
                total += error / (e.0 * e.0 + e.1 * e.1).squareRoot()
            }
            let mean = total / Double(cells)
            print("Barnes-Hut mean relative error, \(cells) cells: \(mean)")
            XCTAssertLessThan(mean, 0.01, "mean relative error \(mean) at \(cells) cells")
        }
    }
}
