import Foundation
import XCTest
@testable import ForceLayout

final class PhysicsTests: XCTestCase {
    /// Each cell sits at d/2 where the spring balances the pair's repulsion:
    /// stiffness * d/2 = charge^3 / d^2, so d = (2 charge^3 / stiffness)^(1/3).
    func testTwoCellsSettleSymmetricAtTheBalanceDistance() throws {
        var p = Parameters.defaults
        p.threshold = 1e-9
        let sim = Simulation(parameters: p, seed: 7)
        sim.add(count: 2)
        XCTAssertNotNil(runUntilSettled(sim, limit: 20_000))
        let expected = cbrt(2 * pow(p.charge, 3) / p.stiffness)
        XCTAssertEqual(expected, 46.4159, accuracy: 1e-3)
        let a = (sim.xs[0], sim.ys[0]), b = (sim.xs[1], sim.ys[1])
        XCTAssertEqual(distance(a, b), expected, accuracy: 1e-3)
        XCTAssertEqual((a.0 + b.0) / 2, 0, accuracy: 1e-3)
        XCTAssertEqual((a.1 + b.1) / 2, 0, accuracy: 1e-3)
        XCTAssertEqual(distance(a, (0, 0)), distance(b, (0, 0)), accuracy: 1e-3)
    }

    func testOneCellSettlesOnTheCenter() {
        var p = Parameters.defaults
        p.threshold = 1e-9
        let sim = Simulation(parameters: p)
        sim.add(count: 1, spawn: .point(x: 300, y: -120))
        XCTAssertNotNil(runUntilSettled(sim, limit: 5_000))
        XCTAssertEqual(sim.xs[0], 0, accuracy: 1e-6)
        XCTAssertEqual(sim.ys[0], 0, accuracy: 1e-6)
    }

    func testManyCellsSettleWithoutCrowding() {
        let sim = Simulation(seed: 42)
        sim.add(count: 60)
        let steps = runUntilSettled(sim, limit: 5_000)
        XCTAssertNotNil(steps, "60 cells did not settle")
        XCTAssertTrue(sim.lastReport.settled)
        XCTAssertLessThan(sim.lastReport.maxMove, sim.parameters.threshold)
        XCTAssertGreaterThan(minPairDistance(sim), 0.5 * sim.parameters.cellSize)
    }

    func testCoincidentCellsSeparate() {
        let sim = Simulation(seed: 3)
        sim.add(count: 10, spawn: .center)
        XCTAssertEqual(minPairDistance(sim), 0)
        for _ in 0..<50 { sim.step() }
        XCTAssertGreaterThan(minPairDistance(sim), 5)
        XCTAssertTrue(allFinite(sim))
    }

    func testTwoCoincidentCellsSeparateAntisymmetrically() {
        let sim = Simulation()
        sim.add(count: 2, spawn: .point(x: 10, y: 10))
        sim.parameters.stiffness = 1e-9   // isolate the wiggle from the spring
        sim.step()
        // Equal and opposite pushes: the midpoint stays where the pair was.
        XCTAssertEqual((sim.xs[0] + sim.xs[1]) / 2, 10, accuracy: 1e-9)
        XCTAssertEqual((sim.ys[0] + sim.ys[1]) / 2, 10, accuracy: 1e-9)
        XCTAssertGreaterThan(minPairDistance(sim), 1)
    }

    func testWiggleIsDeterministicAndAntisymmetric() {
        let a = Wiggle.direction(for: 3, awayFrom: 9, tick: 17)
        let b = Wiggle.direction(for: 9, awayFrom: 3, tick: 17)
        XCTAssertEqual(a.x, -b.x)
        XCTAssertEqual(a.y, -b.y)
        XCTAssertEqual((a.x * a.x + a.y * a.y).squareRoot(), 1, accuracy: 1e-12)
        let again = Wiggle.direction(for: 3, awayFrom: 9, tick: 17)
        XCTAssertEqual(a.x, again.x)
        XCTAssertEqual(a.y, again.y)
        let later = Wiggle.direction(for: 3, awayFrom: 9, tick: 18)
        XCTAssertFalse(a.x == later.x && a.y == later.y)
    }

    /// A pinned cell stays at its pin, and a free neighbour settles where the spring
    /// balances the pinned cell's push: stiffness * d = charge^3 / d^2.
    func testPinnedCellHoldsAndStillPushes() throws {
        var p = Parameters.defaults
        p.threshold = 1e-9
        let sim = Simulation(parameters: p)
        let ids = sim.add(count: 2, spawn: .point(x: 5, y: 0))
        try sim.pin(ids[0], x: 0, y: 0)
        XCTAssertTrue(sim.isPinned(ids[0]))
        for _ in 0..<3_000 {
            sim.step()
            let pinned = try XCTUnwrap(sim.position(of: ids[0]))
            XCTAssertEqual(pinned.x, 0)
            XCTAssertEqual(pinned.y, 0)
        }
        let free = try XCTUnwrap(sim.position(of: ids[1]))
        XCTAssertEqual(distance(free, (0, 0)), cbrt(pow(p.charge, 3) / p.stiffness), accuracy: 1e-3)

        try sim.unpin(ids[0])
        XCTAssertFalse(sim.isPinned(ids[0]))
        sim.step()
        XCTAssertNotEqual(try XCTUnwrap(sim.position(of: ids[0])).x, 0)
    }

    func testPinMovesTheCellAndRejectsBadInput() throws {
        let sim = Simulation()
        let id = sim.add(count: 1)[0]
        try sim.pin(id, x: 12.5, y: -3)
        XCTAssertEqual(sim.position(of: id)?.x, 12.5)
        XCTAssertEqual(sim.position(of: id)?.y, -3)
        XCTAssertThrowsError(try sim.pin(id, x: .nan, y: 0)) { XCTAssertEqual($0 as? LayoutError, .invalidPosition) }
        XCTAssertThrowsError(try sim.pin(id, x: 0, y: .infinity)) { XCTAssertEqual($0 as? LayoutError, .invalidPosition) }
        XCTAssertThrowsError(try sim.pin(99, x: 0, y: 0)) { XCTAssertEqual($0 as? LayoutError, .unknownCell(99)) }
        XCTAssertThrowsError(try sim.unpin(99)) { XCTAssertEqual($0 as? LayoutError, .unknownCell(99)) }
        XCTAssertEqual(sim.position(of: id)?.x, 12.5)
    }

    func testEmptyAndAllPinnedLayoutsAreSettled() throws {
        let sim = Simulation()
        XCTAssertTrue(sim.lastReport.settled)
        XCTAssertEqual(sim.step(), StepReport(maxMove: 0, totalMove: 0, settled: true))
        XCTAssertEqual(sim.tick, 1)
        let ids = sim.add(count: 3)
        for id in ids { try sim.pin(id, x: Double(id), y: 0) }
        sim.parameters.threshold = 0
        XCTAssertEqual(sim.step(), StepReport(maxMove: 0, totalMove: 0, settled: true))
        XCTAssertEqual(sim.tick, 2)
    }

    func testReportMatchesTheMovement() {
        let sim = Simulation(seed: 5)
        sim.add(count: 20)
        let bx = sim.xs, by = sim.ys
        let report = sim.step()
        var maxMove = 0.0, total = 0.0
        for i in 0..<sim.count {
            let m = distance((bx[i], by[i]), (sim.xs[i], sim.ys[i]))
            maxMove = max(maxMove, m)
            total += m
        }
        XCTAssertEqual(report.maxMove, maxMove, accuracy: 1e-9)
        XCTAssertEqual(report.totalMove, total, accuracy: 1e-9)
        XCTAssertEqual(report.settled, report.maxMove < sim.parameters.threshold)
        XCTAssertEqual(sim.lastReport, report)
    }
}
