import XCTest
@testable import ForceLayout

final class CollisionTests: XCTestCase {
    private func settle(_ simulation: Simulation, cap: Int = 5000) -> Int {
        var steps = 0
        while steps < cap {
            steps += 1
            if simulation.step().settled { break }
        }
        return steps
    }

    func testWeakChargeOverlapsWithoutCollideAndNeverWithIt() {
        var parameters = Parameters.defaults
        parameters.charge = 3  // far too weak to keep cells of 20 apart
        let loose = Simulation(parameters: parameters, seed: 6)
        loose.add(count: 300, spawn: .random)
        _ = settle(loose)
        XCTAssertGreaterThan(LayoutQuality.overlaps(loose).pairs, 100)

        parameters.collide = true
        let packed = Simulation(parameters: parameters, seed: 6)
        packed.add(count: 300, spawn: .random)
        let steps = settle(packed)
        XCTAssertTrue(packed.lastReport.settled, "not settled after \(steps) steps")
        let (pairs, closest) = LayoutQuality.overlaps(packed)
        XCTAssertEqual(pairs, 0, "closest pair \(closest)")
    }

    func testPinnedCellsKeepTheirPlaceAndOthersMakeRoom() throws {
        var parameters = Parameters.defaults
        parameters.charge = 3
        parameters.collide = true
        let simulation = Simulation(parameters: parameters, seed: 2)
        simulation.add(count: 120, spawn: .random)
        try simulation.pin(7, x: 0, y: 0)
        try simulation.pin(8, x: 15, y: 0)  // two pins overlapping each other: both stay
        _ = settle(simulation)
        XCTAssertEqual(simulation.position(of: 7)?.x, 0)
        XCTAssertEqual(simulation.position(of: 8)?.x, 15)
        // Only the pinned pair may overlap.
        XCTAssertLessThanOrEqual(LayoutQuality.overlaps(simulation).pairs, 1)
    }

    func testCoincidentCellsWithCollideSeparate() {
        var parameters = Parameters.defaults
        parameters.collide = true
        let simulation = Simulation(parameters: parameters, seed: 3)
        simulation.add(count: 30, spawn: .center)
        _ = settle(simulation)
        XCTAssertEqual(LayoutQuality.overlaps(simulation).pairs, 0)
        XCTAssertFalse(simulation.xs.contains { !$0.isFinite })
    }

    func testTurningCollideOffReleasesContacts() {
        var parameters = Parameters.defaults
        parameters.charge = 3
        parameters.collide = true
        let simulation = Simulation(parameters: parameters, seed: 4)
        simulation.add(count: 100, spawn: .random)
        _ = settle(simulation)
        simulation.parameters.collide = false
        _ = settle(simulation)
        XCTAssertTrue(simulation.motion.pushX.allSatisfy { $0 == 0 })
        XCTAssertGreaterThan(LayoutQuality.overlaps(simulation).pairs, 0, "without collide, weak charge overlaps again")
    }
}
