import XCTest
@testable import ForceLayout

/// Issue 9, item 3: `settled` must mean at rest under the current parameters, whatever
/// happened before. Damping gains that collapsed while the parameters flapped must not let
/// a layout spread many times wider than a fresh one pass for rest.
final class SettleHistoryTests: XCTestCase {
    private let cells = 300
    private let seed: UInt64 = 5

    /// What an attacker within the rate limit does: 60 `params` messages a second at 20
    /// steps a second, so three messages between steps, cycling cellSize 200, charge 1000,
    /// cellSize 1, charge 0. The steps see all four combinations of the extremes.
    private func flap(_ simulation: Simulation, steps: Int) {
        var message = 0
        for _ in 0..<steps {
            for _ in 0..<3 {
                switch message % 4 {
                case 0: simulation.parameters.cellSize = 200
                case 1: simulation.parameters.charge = 1000
                case 2: simulation.parameters.cellSize = 1
                default: simulation.parameters.charge = 0
                }
                message += 1
            }
            simulation.step()
        }
    }

    private func freshSettled(_ parameters: Parameters) -> Simulation {
        let fresh = Simulation(parameters: parameters, seed: seed)
        fresh.add(count: cells)
        XCTAssertNotNil(runUntilSettled(fresh, limit: 5000), "the fresh layout did not settle")
        return fresh
    }

    private func assertSameExtent(_ layout: Simulation, as fresh: Simulation, file: StaticString = #filePath, line: UInt = #line) {
        let (radius, freshRadius) = (rmsRadius(layout), rmsRadius(fresh))
        XCTAssertEqual(radius / freshRadius, 1, accuracy: 0.1,
                       "RMS radius \(radius), a fresh layout's \(freshRadius)", file: file, line: line)
        guard let box = layout.contentBounds(), let freshBox = fresh.contentBounds() else {
            return XCTFail("no cells", file: file, line: line)
        }
        XCTAssertEqual(box.width / freshBox.width, 1, accuracy: 0.1,
                       "width \(box.width), a fresh layout's \(freshBox.width)", file: file, line: line)
        XCTAssertEqual(box.height / freshBox.height, 1, accuracy: 0.1,
                       "height \(box.height), a fresh layout's \(freshBox.height)", file: file, line: line)
    }

    func testAfterFlappingParametersRestoringTheDefaultsSettlesAtTheFreshExtent() {
        let fresh = freshSettled(.defaults)

        let layout = Simulation(seed: seed)
        layout.add(count: cells)
        XCTAssertNotNil(runUntilSettled(layout, limit: 5000))
        flap(layout, steps: 150)
        layout.parameters = .defaults
        let spread = rmsRadius(layout)
        XCTAssertGreaterThan(spread, 3 * rmsRadius(fresh), "the flapping spread the layout (else this tests nothing)")

        XCTAssertFalse(layout.step().settled, "claims rest after one step, spread \(spread / rmsRadius(fresh))x a fresh layout")
        let steps = runUntilSettled(layout, limit: 5000)
        XCTAssertNotNil(steps, "did not settle within 5000 steps")
        assertSameExtent(layout, as: fresh)
    }

    /// Not only parameters: cells added in a crowd at the center and removed a few steps
    /// later, again and again, push the others out and collapse their gains the same way.
    func testAfterFlappingMembershipTheLayoutSettlesAtTheFreshExtent() {
        let fresh = freshSettled(.defaults)

        let layout = Simulation(seed: seed)
        layout.add(count: cells)
        XCTAssertNotNil(runUntilSettled(layout, limit: 5000))
        for _ in 0..<8 {
            layout.add(count: 600, spawn: .center)
            for _ in 0..<4 { layout.step() }
            layout.removeNewest(600)
            layout.step()
        }
        XCTAssertGreaterThan(rmsRadius(layout), 1.15 * rmsRadius(fresh), "the crowds spread the layout")

        XCTAssertFalse(layout.step().settled, "claims rest after one step")
        XCTAssertNotNil(runUntilSettled(layout, limit: 5000), "did not settle within 5000 steps")
        assertSameExtent(layout, as: fresh)
    }

    /// The contract in its smallest form: a cell far from its rest whose gain collapsed
    /// takes a tiny damped step, and that step is not taken for rest.
    func testACellWithCollapsedGainFarFromRestIsNotSettled() {
        for collide in [false, true] {
            var parameters = Parameters.defaults
            parameters.collide = collide
            let simulation = Simulation(parameters: parameters)
            simulation.add(count: 1, spawn: .point(x: 1000, y: 0))
            simulation.motion.gain = [Damping.minimumGain]
            let report = simulation.step()
            // The spring pulls with 0.02 * 1000 = 20; the damped step is 20 / 1024 ≈ 0.02.
            XCTAssertLessThan(report.maxMove, parameters.threshold, "collide \(collide)")
            XCTAssertFalse(report.settled, "collide \(collide)")
        }
    }

    /// The other half of the contract: damping learned under the current forces is trusted,
    /// so a dense layout (whose Barnes-Hut forces jitter above `threshold` for a few cells)
    /// settles on its damped steps as before, and every step a fresh layout takes is judged
    /// by its movement.
    func testAFreshDenseLayoutIsJudgedByItsDampedSteps() {
        var parameters = Parameters.defaults
        parameters.stiffness = 0.2
        let simulation = Simulation(parameters: parameters, seed: 8)
        simulation.add(count: 400)
        var report = StepReport(maxMove: 0, totalMove: 0, settled: false)
        for _ in 0..<2000 where !report.settled {
            report = simulation.step()
            XCTAssertEqual(report.maxRestStep, report.maxMove)
        }
        XCTAssertTrue(report.settled)
        XCTAssertLessThan(simulation.motion.gain.min() ?? 1, 0.5, "the layout was damped (else this tests nothing)")
    }
}

/// The root mean square distance of the cells from their centroid.
func rmsRadius(_ simulation: Simulation) -> Double {
    let n = Double(simulation.count)
    guard n > 0 else { return 0 }
    let cx = simulation.xs.reduce(0, +) / n, cy = simulation.ys.reduce(0, +) / n
    var sum = 0.0
    for i in 0..<simulation.count {
        let dx = simulation.xs[i] - cx, dy = simulation.ys[i] - cy
        sum += dx * dx + dy * dy
    }
    return (sum / n).squareRoot()
}
