import XCTest
@testable import ForceLayout

final class SpawnTests: XCTestCase {
    private func layout(_ n: Int) -> Simulation {
        let sim = Simulation(seed: 77)
        sim.add(count: n)
        for _ in 0..<30 { sim.step() }
        return sim
    }

    func testRandomStaysInsideTheContentBounds() throws {
        let sim = layout(40)
        let b = try XCTUnwrap(sim.contentBounds())
        for id in sim.add(count: 200, spawn: .random) {
            let p = try XCTUnwrap(sim.position(of: id))
            XCTAssertTrue(b.contains(x: p.x, y: p.y), "\(p) outside \(b)")
        }
    }

    func testBorderLiesOnTheBoundsEdge() throws {
        let sim = layout(40)
        let b = try XCTUnwrap(sim.contentBounds())
        var sides = Set<String>()
        for id in sim.add(count: 200, spawn: .border) {
            let p = try XCTUnwrap(sim.position(of: id))
            XCTAssertTrue(b.contains(x: p.x, y: p.y), "\(p) outside \(b)")
            let onEdge = [("left", p.x == b.minX), ("right", p.x == b.maxX),
                          ("bottom", p.y == b.minY), ("top", p.y == b.maxY)].filter(\.1)
            XCTAssertFalse(onEdge.isEmpty, "\(p) not on the edge of \(b)")
            sides.formUnion(onEdge.map(\.0))
        }
        XCTAssertEqual(sides.count, 4)
    }

    func testPointAndCenterLandExactly() throws {
        let sim = layout(5)
        for id in sim.add(count: 3, spawn: .point(x: 123.5, y: -77)) {
            XCTAssertEqual(sim.position(of: id)?.x, 123.5)
            XCTAssertEqual(sim.position(of: id)?.y, -77)
        }
        for id in sim.add(count: 2, spawn: .center) {
            XCTAssertEqual(sim.position(of: id)?.x, 0)
            XCTAssertEqual(sim.position(of: id)?.y, 0)
        }
        let bad = sim.add(count: 1, spawn: .point(x: .nan, y: .infinity))[0]
        XCTAssertEqual(sim.position(of: bad)?.x, 0)
        XCTAssertEqual(sim.position(of: bad)?.y, 0)
    }

    func testEmptyOrDegenerateLayoutsUseASquareAroundTheCenter() throws {
        let half = 20 * Double(9).squareRoot()   // cellSize * sqrt(count), the half side
        let square = Bounds(minX: -half, minY: -half, maxX: half, maxY: half)

        let empty = Simulation(seed: 1)
        for id in empty.add(count: 9) {
            let p = try XCTUnwrap(empty.position(of: id))
            XCTAssertTrue(square.contains(x: p.x, y: p.y))
        }
        XCTAssertGreaterThan(try XCTUnwrap(empty.contentBounds()).width, 0)

        // Two cells on a horizontal line: zero height, so the bounds are degenerate.
        let line = Simulation(seed: 1)
        line.add(count: 1, spawn: .point(x: -500, y: 8))
        line.add(count: 1, spawn: .point(x: 500, y: 8))
        for id in line.add(count: 9, spawn: .border) {
            let p = try XCTUnwrap(line.position(of: id))
            XCTAssertTrue(abs(p.x) == half || abs(p.y) == half, "\(p) not on the fallback square")
        }
    }

    func testSpawningIntoTheWidestFiniteBoundsStaysFinite() throws {
        let sim = Simulation()
        let ids = sim.add(count: 2, spawn: .center)
        try sim.pin(ids[0], x: -Double.greatestFiniteMagnitude, y: -Double.greatestFiniteMagnitude)
        try sim.pin(ids[1], x: Double.greatestFiniteMagnitude, y: Double.greatestFiniteMagnitude)
        sim.add(count: 50, spawn: .random)
        sim.add(count: 50, spawn: .border)
        XCTAssertTrue(allFinite(sim))
        sim.step()
        XCTAssertTrue(allFinite(sim))
    }

    func testSeededRandomIsReproducible() {
        var a = SeededRandom(seed: 123), b = SeededRandom(seed: 123), c = SeededRandom(seed: 124)
        let sa = (0..<5).map { _ in a.next() }
        XCTAssertEqual(sa, (0..<5).map { _ in b.next() })
        XCTAssertNotEqual(sa, (0..<5).map { _ in c.next() })
        let s1 = Simulation(seed: 5), s2 = Simulation(seed: 5)
        s1.add(count: 10); s2.add(count: 10)
        XCTAssertEqual(s1.xs, s2.xs)
    }
}
