import XCTest
@testable import ForceLayout

final class RadiusTests: XCTestCase {
    private func settle(_ simulation: Simulation, cap: Int = 5000) {
        for _ in 0..<cap where !simulation.step().settled {}
    }

    /// Pairs of cells closer than the sum of their radii (less a tolerance), pinned pairs aside.
    private func overlaps(_ simulation: Simulation) -> Int {
        let standard = simulation.parameters.cellSize / 2
        var count = 0
        for a in simulation.ids {
            for b in simulation.ids where b > a {
                if simulation.isPinned(a) && simulation.isPinned(b) { continue }
                let p = simulation.position(of: a)!, q = simulation.position(of: b)!
                let contact = (simulation.radius(of: a) ?? standard) + (simulation.radius(of: b) ?? standard)
                let dx = p.x - q.x, dy = p.y - q.y
                if (dx * dx + dy * dy).squareRoot() < contact * (1 - 2e-3) { count += 1 }
            }
        }
        return count
    }

    func testCollideKeepsCellsApartByTheSumOfTheirRadii() throws {
        var parameters = Parameters.defaults
        parameters.charge = 3
        parameters.collide = true
        let simulation = Simulation(parameters: parameters, seed: 4)
        let seeds = (0..<150).map { k in CellSeed(radius: k % 10 == 0 ? 60 : (k % 3 == 0 ? 2 : nil)) }
        try simulation.add(seeds)
        settle(simulation)
        XCTAssertTrue(simulation.lastReport.settled)
        XCTAssertEqual(overlaps(simulation), 0)
    }

    func testDefaultRadiiStepExactlyAsBeforeRadii() throws {
        var parameters = Parameters.defaults
        parameters.collide = true
        let plain = Simulation(parameters: parameters, seed: 9)
        plain.add(count: 400)
        let seeded = Simulation(parameters: parameters, seed: 9)
        try seeded.add(Array(repeating: CellSeed(), count: 400))
        // A radius set and set back leaves nothing behind.
        try seeded.setRadius(50, of: 3)
        try seeded.setRadius(nil, of: 3)
        for _ in 0..<60 {
            plain.step()
            seeded.step()
        }
        XCTAssertEqual(plain.xs, seeded.xs)
        XCTAssertEqual(plain.ys, seeded.ys)
    }

    func testSeedsPlaceCellsAndBadSeedsAddNothing() throws {
        let simulation = Simulation(seed: 1)
        let ids = try simulation.add([CellSeed(x: 5, y: -7, radius: 3), CellSeed()], spawn: .center)
        XCTAssertEqual(ids, [1, 2])
        XCTAssertEqual(simulation.position(of: 1)?.x, 5)
        XCTAssertEqual(simulation.position(of: 1)?.y, -7)
        XCTAssertEqual(simulation.position(of: 2)?.x, 0)
        XCTAssertEqual(simulation.radius(of: 1), 3)
        XCTAssertNil(simulation.radius(of: 2))
        for bad in [CellSeed(radius: 0.5), CellSeed(radius: 201), CellSeed(radius: .nan), CellSeed(x: 1),
                    CellSeed(x: .infinity, y: 0)] {
            XCTAssertThrowsError(try simulation.add([CellSeed(), bad]))
        }
        XCTAssertEqual(simulation.count, 2)
        XCTAssertEqual(simulation.nextID, 3)
        XCTAssertThrowsError(try simulation.setRadius(0, of: 1)) { XCTAssertEqual($0 as? LayoutError, .invalidRadius(0)) }
        XCTAssertThrowsError(try simulation.setRadius(4, of: 9)) { XCTAssertEqual($0 as? LayoutError, .unknownCell(9)) }
    }

    func testRadiiAndLinksSurviveASnapshotAndGoWithTheirCells() throws {
        let simulation = Simulation(seed: 1)
        try simulation.add([CellSeed(radius: 7), CellSeed(), CellSeed(radius: 9), CellSeed()])
        try simulation.link([Link(source: 1, target: 2), Link(source: 3, target: 4, distance: 50, strength: 0.5)])
        let restored = try Simulation(snapshot: simulation.snapshot())
        XCTAssertEqual(restored.links, simulation.links)
        XCTAssertEqual(restored.radius(of: 1), 7)
        XCTAssertEqual(restored.radius(of: 3), 9)
        XCTAssertEqual(restored.customRadii, 2)

        restored.removeNewest(1)
        XCTAssertEqual(restored.links, [Link(source: 1, target: 2)])
        _ = try restored.remove(ids: [1])
        XCTAssertEqual(restored.links, [])
        XCTAssertEqual(restored.customRadii, 1)
        restored.clear()
        XCTAssertEqual(restored.customRadii, 0)

        simulation.clear()
        XCTAssertEqual(simulation.links, [])
        var bad = Simulation(seed: 1).snapshot()
        bad.cells = [CellRecord(id: 1, x: 0, y: 0, pinned: false, radius: 500)]
        bad.nextID = 2
        XCTAssertThrowsError(try Simulation(snapshot: bad)) { XCTAssertEqual($0 as? LayoutError, .invalidRadius(500)) }
        bad.cells[0].radius = nil
        bad.links = [Link(source: 1, target: 1)]
        XCTAssertThrowsError(try Simulation(snapshot: bad)) { XCTAssertEqual($0 as? LayoutError, .selfLink(1)) }
    }
}
