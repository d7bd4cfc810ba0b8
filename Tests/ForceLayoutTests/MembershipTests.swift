import XCTest
@testable import ForceLayout

final class MembershipTests: XCTestCase {
    /// ids ascending, parallel arrays the same length, and every lookup agrees with them.
    private func assertConsistent(_ sim: Simulation, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(sim.ids.count, sim.count, file: file, line: line)
        XCTAssertEqual(sim.xs.count, sim.count, file: file, line: line)
        XCTAssertEqual(sim.ys.count, sim.count, file: file, line: line)
        XCTAssertEqual(sim.ids, sim.ids.sorted(), file: file, line: line)
        XCTAssertEqual(Set(sim.ids).count, sim.count, file: file, line: line)
        for (i, id) in sim.ids.enumerated() {
            XCTAssertTrue(sim.contains(id), file: file, line: line)
            XCTAssertEqual(sim.position(of: id)?.x, sim.xs[i], file: file, line: line)
            XCTAssertEqual(sim.position(of: id)?.y, sim.ys[i], file: file, line: line)
        }
        if let last = sim.ids.last { XCTAssertGreaterThan(sim.nextID, last, file: file, line: line) }
    }

    func testAddAssignsAscendingIdsAndBumpsVersion() {
        let sim = Simulation()
        XCTAssertEqual(sim.nextID, 1)
        XCTAssertEqual(sim.version, 0)
        XCTAssertEqual(sim.add(count: 3), [1, 2, 3])
        XCTAssertEqual(sim.version, 1)
        XCTAssertEqual(sim.add(count: 0), [])
        XCTAssertEqual(sim.add(count: -4), [])
        XCTAssertEqual(sim.version, 1)
        XCTAssertEqual(sim.add(count: 2, spawn: .center), [4, 5])
        XCTAssertEqual(sim.version, 2)
        XCTAssertEqual(sim.nextID, 6)
        assertConsistent(sim)
    }

    func testRemovingMidRunKeepsTheRestConsistent() throws {
        let sim = Simulation(seed: 9)
        sim.add(count: 30)
        for _ in 0..<20 { sim.step() }
        let before = sim.snapshot().cells
        let version = sim.version

        let removed = try sim.remove(ids: [17, 3, 3, 29, 1])
        XCTAssertEqual(removed, [1, 3, 17, 29])
        XCTAssertEqual(sim.version, version + 1)
        XCTAssertEqual(sim.count, 26)
        assertConsistent(sim)
        // Survivors keep their order and positions.
        XCTAssertEqual(sim.snapshot().cells, before.filter { ![1, 3, 17, 29].contains($0.id) })
        for id in removed { XCTAssertFalse(sim.contains(id)); XCTAssertNil(sim.position(of: id)) }

        for _ in 0..<20 { sim.step() }
        assertConsistent(sim)
        XCTAssertTrue(allFinite(sim))
    }

    func testRemovingAnUnknownIdThrowsAndRemovesNothing() {
        let sim = Simulation()
        sim.add(count: 5)
        let version = sim.version
        XCTAssertThrowsError(try sim.remove(ids: [2, 42, 3])) {
            XCTAssertEqual($0 as? LayoutError, .unknownCell(42))
        }
        XCTAssertEqual(sim.ids, [1, 2, 3, 4, 5])
        XCTAssertEqual(sim.version, version)
        XCTAssertEqual(try sim.remove(ids: []), [])
        XCTAssertEqual(sim.version, version)
        assertConsistent(sim)
    }

    func testIdsAreNeverReused() throws {
        let sim = Simulation()
        sim.add(count: 4)
        XCTAssertEqual(try sim.remove(ids: [4]), [4])
        XCTAssertEqual(sim.add(count: 1), [5])
        let version = sim.version
        XCTAssertEqual(sim.clear(), [1, 2, 3, 5])
        XCTAssertEqual(sim.version, version + 1)
        XCTAssertEqual(sim.count, 0)
        XCTAssertNil(sim.contentBounds())
        XCTAssertEqual(sim.clear(), [])
        XCTAssertEqual(sim.version, version + 1)
        XCTAssertEqual(sim.add(count: 2), [6, 7])
        assertConsistent(sim)
    }

    func testRemoveNewestRemovesTheHighestIds() throws {
        let sim = Simulation()
        sim.add(count: 6)
        _ = try sim.remove(ids: [5])
        let version = sim.version
        XCTAssertEqual(sim.removeNewest(2), [4, 6])
        XCTAssertEqual(sim.ids, [1, 2, 3])
        XCTAssertEqual(sim.version, version + 1)
        assertConsistent(sim)
        XCTAssertEqual(sim.removeNewest(0), [])
        XCTAssertEqual(sim.version, version + 1)
        XCTAssertEqual(sim.removeNewest(10), [1, 2, 3])
        XCTAssertEqual(sim.count, 0)
        XCTAssertEqual(sim.removeNewest(1), [])
        XCTAssertEqual(sim.add(count: 1), [7])
        assertConsistent(sim)
    }

    func testPinningSurvivesCompaction() throws {
        let sim = Simulation()
        sim.add(count: 5)
        try sim.pin(4, x: 1, y: 2)
        _ = try sim.remove(ids: [2])
        XCTAssertTrue(sim.isPinned(4))
        XCTAssertFalse(sim.isPinned(3))
        XCTAssertFalse(sim.isPinned(2))
        sim.step()
        XCTAssertEqual(sim.position(of: 4)?.x, 1)
        XCTAssertEqual(sim.position(of: 4)?.y, 2)
    }

    func testContentBounds() throws {
        let sim = Simulation()
        XCTAssertNil(sim.contentBounds())
        sim.add(count: 1, spawn: .point(x: -3, y: 4))
        sim.add(count: 1, spawn: .point(x: 5, y: -6))
        let b = try XCTUnwrap(sim.contentBounds())
        XCTAssertEqual(b, Bounds(minX: -3, minY: -6, maxX: 5, maxY: 4))
        XCTAssertEqual(b.width, 8)
        XCTAssertEqual(b.height, 10)
    }
}
