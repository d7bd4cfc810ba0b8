import Foundation
import XCTest
@testable import ForceLayout

final class SnapshotTests: XCTestCase {
    func testSnapshotRoundTripsThroughJSON() throws {
        var p = Parameters.defaults
        p.charge = 12.5
        p.collide = true
        let sim = Simulation(parameters: p, seed: 4)
        sim.add(count: 12)
        _ = try sim.remove(ids: [3, 12])
        try sim.pin(5, x: -7.25, y: 1e-3)
        for _ in 0..<10 { sim.step() }

        let snap = sim.snapshot()
        XCTAssertEqual(snap.nextID, 13)
        XCTAssertEqual(snap.cells.map(\.id), sim.ids)
        XCTAssertEqual(snap.parameters, p)

        let data = try JSONEncoder().encode(snap)
        let decoded = try JSONDecoder().decode(LayoutSnapshot.self, from: data)
        XCTAssertEqual(decoded, snap)

        let restored = try Simulation(snapshot: decoded)
        XCTAssertEqual(restored.snapshot(), snap)
        XCTAssertEqual(restored.ids, sim.ids)
        XCTAssertEqual(restored.xs, sim.xs)
        XCTAssertEqual(restored.ys, sim.ys)
        XCTAssertTrue(restored.isPinned(5))

        // Same state, same forces: the next step agrees exactly (wiggle depends on tick only
        // for coincident cells, and there are none here).
        let a = sim.step(), b = restored.step()
        XCTAssertEqual(a, b)
        XCTAssertEqual(restored.xs, sim.xs)
        XCTAssertEqual(restored.ys, sim.ys)
        XCTAssertEqual(restored.add(count: 1), [13])
    }

    func testParametersDecodeWithMissingKeysAsDefaults() throws {
        let json = Data(#"{"charge": 20, "paused": true}"#.utf8)
        let p = try JSONDecoder().decode(Parameters.self, from: json)
        var expected = Parameters.defaults
        expected.charge = 20
        expected.paused = true
        XCTAssertEqual(p, expected)
        XCTAssertEqual(Parameters(), Parameters.defaults)
        XCTAssertEqual(try JSONDecoder().decode(Parameters.self, from: JSONEncoder().encode(expected)), expected)
    }

    func testInitFromSnapshotSortsByIdAndStartsClean() throws {
        let snap = LayoutSnapshot(parameters: .defaults, nextID: 10, cells: [
            CellRecord(id: 7, x: 1, y: 1, pinned: false),
            CellRecord(id: 2, x: 2, y: 2, pinned: true),
        ])
        let sim = try Simulation(snapshot: snap)
        XCTAssertEqual(sim.ids, [2, 7])
        XCTAssertEqual(sim.xs, [2, 1])
        XCTAssertEqual(sim.tick, 0)
        XCTAssertEqual(sim.nextID, 10)
        XCTAssertFalse(sim.lastReport.settled)
        XCTAssertTrue(try Simulation(snapshot: LayoutSnapshot(parameters: .defaults, nextID: 1, cells: []))
            .lastReport.settled)
    }

    func testASnapshotsLinkedCellsStayWhereTheyWereBesideAPin() throws {
        // The graph model places a cell linked for the first time among its neighbours; a
        // saved layout's cells are placed already: a pinned cell's neighbours (and theirs) stay.
        let snap = LayoutSnapshot(parameters: .defaults, nextID: 5, cells: [
            CellRecord(id: 1, x: 100, y: 100, pinned: true),
            CellRecord(id: 2, x: -50, y: 20, pinned: false),
            CellRecord(id: 3, x: 70, y: -80, pinned: false),
            CellRecord(id: 4, x: 5, y: 5, pinned: false),
        ], links: [Link(source: 1, target: 2), Link(source: 2, target: 3), Link(source: 3, target: 4)])
        let sim = try Simulation(snapshot: snap)
        XCTAssertTrue(sim.usesGraphModel)
        XCTAssertEqual(sim.xs, [100, -50, 70, 5])
        XCTAssertEqual(sim.ys, [100, 20, -80, 5])
        XCTAssertEqual(sim.snapshot(), snap)
    }

    func testInitFromSnapshotRejectsBadSnapshots() {
        func cells(_ list: [(CellID, Double, Double)]) -> [CellRecord] {
            list.map { CellRecord(id: $0.0, x: $0.1, y: $0.2, pinned: false) }
        }
        let bad: [(LayoutSnapshot, LayoutError)] = [
            (LayoutSnapshot(parameters: .defaults, nextID: 5, cells: cells([(1, .nan, 0)])), .invalidPosition),
            (LayoutSnapshot(parameters: .defaults, nextID: 5, cells: cells([(1, 0, -.infinity)])), .invalidPosition),
            (LayoutSnapshot(parameters: .defaults, nextID: 5, cells: cells([(2, 0, 0), (2, 1, 1)])), .unknownCell(2)),
            (LayoutSnapshot(parameters: .defaults, nextID: 5, cells: cells([(0, 0, 0)])), .unknownCell(0)),
            (LayoutSnapshot(parameters: .defaults, nextID: 5, cells: cells([(-3, 0, 0)])), .unknownCell(-3)),
            (LayoutSnapshot(parameters: .defaults, nextID: 4, cells: cells([(1, 0, 0), (4, 0, 0)])), .unknownCell(4)),
            (LayoutSnapshot(parameters: .defaults, nextID: 2, cells: cells([(3, 0, 0)])), .unknownCell(2)),
            (LayoutSnapshot(parameters: .defaults, nextID: 0, cells: []), .unknownCell(0)),
        ]
        for (snap, error) in bad {
            XCTAssertThrowsError(try Simulation(snapshot: snap), "\(snap)") {
                XCTAssertEqual($0 as? LayoutError, error, "\(snap)")
            }
        }
    }
}
