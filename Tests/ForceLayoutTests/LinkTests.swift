import XCTest
@testable import ForceLayout

final class LinkTests: XCTestCase {
    private func pair(distance: Double) throws -> Simulation {
        let sim = Simulation(seed: 1)
        let ids = sim.add(count: 2, spawn: .point(x: 0, y: 0))
        try sim.pin(ids[0], x: 0, y: 0)
        try sim.unpin(ids[0])
        sim.xs = [0, distance]
        sim.ys = [0, 0]
        return sim
    }

    func testALinkPullsItsEndsTowardItsRestLengthEquallyWhenTheirDegreesAreEqual() throws {
        let sim = try pair(distance: 100)
        try sim.link([Link(source: 1, target: 2)])
        sim.forceX = [0, 0]; sim.forceY = [0, 0]
        sim.addLinkForces(parallel: false)
        // (100 - 30) / 100 * strength 1, half each: 35 toward each other.
        XCTAssertEqual(sim.forceX[0], 35, accuracy: 1e-12)
        XCTAssertEqual(sim.forceX[1], -35, accuracy: 1e-12)
        XCTAssertEqual(sim.forceY, [0, 0])
    }

    func testALinkAtItsRestLengthPullsNothingAndAShortOnePushes() throws {
        let sim = try pair(distance: 30)
        try sim.link([Link(source: 1, target: 2)])
        sim.forceX = [0, 0]; sim.forceY = [0, 0]
        sim.addLinkForces(parallel: false)
        XCTAssertEqual(sim.forceX, [0, 0])
        sim.xs = [0, 10]
        sim.addLinkForces(parallel: false)
        XCTAssertLessThan(sim.forceX[0], 0)
        XCTAssertGreaterThan(sim.forceX[1], 0)
    }

    func testEachEndTakesHalfAndStrengthDefaultsToTheSmallerDegree() throws {
        let sim = Simulation(seed: 1)
        _ = sim.add(count: 3)
        sim.xs = [0, 100, -100]; sim.ys = [0, 0, 0]
        try sim.link([Link(source: 1, target: 2), Link(source: 1, target: 3)])
        sim.forceX = [0, 0, 0]; sim.forceY = [0, 0, 0]
        sim.addLinkForces(parallel: false)
        // Degrees 2, 1, 1: strength 1, each end takes half of each correction.
        XCTAssertEqual(sim.forceX[1], -70 / 2, accuracy: 1e-9)
        XCTAssertEqual(sim.forceX[2], 70 / 2, accuracy: 1e-9)
        XCTAssertEqual(sim.forceX[0], 0, accuracy: 1e-9)  // pulled both ways equally
    }

    func testBadLinksAreRefusedAndChangeNothing() throws {
        let sim = Simulation(seed: 1)
        _ = sim.add(count: 3)
        try sim.link([Link(source: 1, target: 2)])
        XCTAssertThrowsError(try sim.link([Link(source: 2, target: 3), Link(source: 2, target: 1)])) {
            XCTAssertEqual($0 as? LayoutError, .duplicateLink(2, 1))
        }
        XCTAssertThrowsError(try sim.link([Link(source: 3, target: 3)])) {
            XCTAssertEqual($0 as? LayoutError, .selfLink(3))
        }
        XCTAssertThrowsError(try sim.link([Link(source: 1, target: 9)])) {
            XCTAssertEqual($0 as? LayoutError, .unknownCell(9))
        }
        XCTAssertThrowsError(try sim.link([Link(source: 1, target: 3, distance: .nan)])) {
            XCTAssertEqual($0 as? LayoutError, .invalidLink(1, 3))
        }
        XCTAssertThrowsError(try sim.link([Link(source: 3, target: 2), Link(source: 2, target: 3)])) {
            XCTAssertEqual($0 as? LayoutError, .duplicateLink(2, 3))
        }
        XCTAssertThrowsError(try sim.unlink([(1, 2), (1, 3)])) {
            XCTAssertEqual($0 as? LayoutError, .unknownLink(1, 3))
        }
        XCTAssertEqual(sim.links, [Link(source: 1, target: 2)])
        try sim.unlink([(2, 1)])
        XCTAssertEqual(sim.links, [])
    }

    func testRemovingACellRemovesItsLinksAndTheRestStillPullTheRightCells() throws {
        let sim = Simulation(seed: 1)
        _ = sim.add(count: 4)
        sim.xs = [0, 100, 200, 300]; sim.ys = [0, 0, 0, 0]
        try sim.link([Link(source: 1, target: 2), Link(source: 3, target: 4), Link(source: 2, target: 3)])
        _ = try sim.remove(ids: [2])
        XCTAssertEqual(sim.links, [Link(source: 3, target: 4)])
        sim.forceX = [0, 0, 0]; sim.forceY = [0, 0, 0]
        sim.addLinkForces(parallel: false)
        XCTAssertEqual(sim.forceX[0], 0)  // cell 1 has no link left
        XCTAssertEqual(sim.forceX[1], 35, accuracy: 1e-12)
        XCTAssertEqual(sim.forceX[2], -35, accuracy: 1e-12)
    }

    func testWithoutLinksAStepIsExactlyTodays() throws {
        let plain = Simulation(seed: 5), linked = Simulation(seed: 5)
        _ = plain.add(count: 300)
        _ = linked.add(count: 300)
        try linked.link([Link(source: 1, target: 2)])
        try linked.unlink([(1, 2)])
        for _ in 0..<20 {
            plain.step()
            linked.step()
        }
        XCTAssertEqual(plain.xs, linked.xs)
        XCTAssertEqual(plain.ys, linked.ys)
    }

    func testParallelAndSerialLinkForcesAgree() throws {
        // 5,000 cells: three chunks of the link loop.
        func make() throws -> Simulation {
            let sim = Simulation(seed: 8)
            _ = sim.add(count: 5_000)
            var links = (1...5_000).map { Link(source: $0, target: $0 % 5_000 + 1) }
            links += stride(from: 1, through: 4_000, by: 97).map { Link(source: $0, target: $0 + 500, distance: 60) }
            try sim.link(links)
            return sim
        }
        let serial = try make(), parallel = try make()
        for _ in 0..<3 {
            serial.advance(parallel: false)
            parallel.advance(parallel: true)
        }
        XCTAssertEqual(serial.xs, parallel.xs)
        XCTAssertEqual(serial.ys, parallel.ys)
    }

    func testLinkedCellsEndUpCloserThanPairsOverall() throws {
        let sim = Simulation(seed: 3)
        _ = sim.add(count: 200)
        // Twenty rings of ten.
        try sim.link((0..<200).map { Link(source: $0 + 1, target: $0 / 10 * 10 + ($0 + 1) % 10 + 1) })
        for _ in 0..<600 { sim.step() }
        func distance(_ a: Int, _ b: Int) -> Double {
            ((sim.xs[a] - sim.xs[b]) * (sim.xs[a] - sim.xs[b]) + (sim.ys[a] - sim.ys[b]) * (sim.ys[a] - sim.ys[b])).squareRoot()
        }
        let linked = sim.links.map { distance($0.source - 1, $0.target - 1) }.reduce(0, +) / Double(sim.links.count)
        var all = 0.0
        for a in 0..<200 { for b in (a + 1)..<200 { all += distance(a, b) } }
        all /= Double(200 * 199 / 2)
        XCTAssertLessThan(2 * linked, all, "linked \(linked), all pairs \(all)")
    }
}

final class LinkSettlingTests: XCTestCase {
    /// A star: one hub linked to 80 leaves, each link pulling the hub with strength 1 (the
    /// leaf's degree): the hub's pulls sum to 80 times a leaf's, and its damping (`Damping`)
    /// must still bring it to rest.
    func testAHubLinkedToManyLeavesSettles() throws {
        let sim = Simulation(seed: 5)
        let ids = sim.add(count: 81)
        try sim.link(ids.dropFirst().map { Link(source: ids[0], target: $0) })
        var steps = 0
        while steps < 3000, !sim.step().settled { steps += 1 }
        XCTAssertTrue(sim.lastReport.settled, "not settled after \(steps) steps (last step \(sim.lastReport.maxRestStep))")
        let hub = try XCTUnwrap(sim.position(of: ids[0]))
        let leaves = ids.dropFirst().map { sim.position(of: $0)! }
        let mean = leaves.map { (($0.x - hub.x) * ($0.x - hub.x) + ($0.y - hub.y) * ($0.y - hub.y)).squareRoot() }.reduce(0, +) / 80
        XCTAssertLessThan(mean, 200, "the leaves hang around the hub")
    }
}
