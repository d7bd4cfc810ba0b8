import XCTest
@testable import ForceLayout

/// `Simulation.restore`: removed cells come back with their ids, places, pins and radii.
final class RestoreTests: XCTestCase {
    private func records(_ sim: Simulation, _ ids: [CellID]) -> [CellRecord] {
        sim.snapshot().cells.filter { ids.contains($0.id) }
    }

    func testCellsRemovedFromTheMiddleComeBackInTheirPlaces() throws {
        let sim = Simulation(seed: 3)
        sim.add(count: 10)
        try sim.pin(4, x: 7, y: -3)
        try sim.setRadius(12, of: 6)
        for _ in 0..<15 { sim.step() }
        let before = sim.snapshot()
        let gone = records(sim, [2, 4, 6, 10])
        _ = try sim.remove(ids: [2, 4, 6, 10])
        let version = sim.version
        try sim.restore(gone.reversed())
        XCTAssertEqual(sim.snapshot().cells, before.cells)
        XCTAssertEqual(sim.pinnedIDs, [4])
        XCTAssertEqual(sim.radius(of: 6), 12)
        XCTAssertEqual(sim.customRadii, 1)
        XCTAssertEqual(sim.nextID, 11)
        XCTAssertGreaterThan(sim.version, version)
        for (i, id) in sim.ids.enumerated() { XCTAssertEqual(sim.position(of: id)?.x, sim.xs[i]) }
        // It steps on as any layout does.
        for _ in 0..<5 { sim.step() }
        XCTAssertTrue(sim.xs.allSatisfy(\.isFinite))
    }

    func testTheNewestCellsComeBackAtTheEnd() throws {
        let sim = Simulation(seed: 5)
        sim.add(count: 6)
        let before = sim.snapshot().cells
        let gone = records(sim, [5, 6])
        sim.removeNewest(2)
        try sim.restore(gone)
        XCTAssertEqual(sim.snapshot().cells, before)
        try sim.link([Link(source: 5, target: 1)])
        XCTAssertEqual(sim.links.count, 1)
    }

    func testARestoreIsAllOrNothing() throws {
        let sim = Simulation(seed: 1)
        sim.add(count: 4)
        _ = try sim.remove(ids: [2])
        let before = sim.snapshot()
        let cases: [([CellRecord], LayoutError)] = [
            ([CellRecord(id: 2, x: 0, y: 0, pinned: false), CellRecord(id: 3, x: 0, y: 0, pinned: false)], .unknownCell(3)),
            ([CellRecord(id: 5, x: 0, y: 0, pinned: false)], .unknownCell(5)),  // never handed out
            ([CellRecord(id: 0, x: 0, y: 0, pinned: false)], .unknownCell(0)),
            ([CellRecord(id: 2, x: 0, y: 0, pinned: false), CellRecord(id: 2, x: 1, y: 1, pinned: false)], .unknownCell(2)),
            ([CellRecord(id: 2, x: .nan, y: 0, pinned: false)], .invalidPosition),
            ([CellRecord(id: 2, x: 0, y: 0, pinned: false, radius: 500)], .invalidRadius(500)),
        ]
        for (cells, error) in cases {
            XCTAssertThrowsError(try sim.restore(cells)) { XCTAssertEqual($0 as? LayoutError, error) }
            XCTAssertEqual(sim.snapshot(), before)
        }
    }
}
