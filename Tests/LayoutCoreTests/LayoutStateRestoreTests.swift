import ForceLayout
import XCTest
@testable import LayoutCore

/// `LayoutState.restore`: the room becomes a moment of its history as one change, or, refused,
/// stays exactly as it was.
final class LayoutStateRestoreTests: XCTestCase {
    private typealias F = HistoryFixtures

    private func attrs(_ text: String) -> Attrs { Attrs(bytes: Array(text.utf8)) }

    /// A past room: cells of two clients with data, links, parameters and a pin.
    private func past() throws -> SavedState {
        var state = F.state(cells: 0, seed: 5)
        _ = try state.apply(.add(count: 3, spawn: .random), from: "c1")
        _ = try state.apply(.addCells([NewCell(seed: CellSeed(radius: 10), data: CellData(label: "Ana", attrs: attrs(#"{"a":1}"#)))],
                                      spawn: .random), from: "c2")
        _ = try state.apply(.link([LinkRecord(Link(source: 1, target: 4, distance: 50), attrs: attrs(#"{"w":2}"#)),
                                   LinkRecord(Link(source: 2, target: 3))]), from: "c1")
        var change = ParameterChange()
        change.charge = 66
        _ = try state.apply(.params(change), from: "c1")
        _ = try state.apply(.pin(id: 2, x: 3, y: 4), from: "c2")
        for _ in 0..<5 { _ = state.step() }
        return state.saved(reservation: state.simulation.nextID, settled: false)
    }

    /// The room now: more cells, stepped further, ids handed out beyond the past's.
    private func present(cells: Int = 8, limits: Limits = Limits(), budget: CellBudget? = nil) throws -> LayoutState {
        var state = F.state(cells: 0, seed: 8, limits: limits, budget: budget)
        _ = try state.apply(.add(count: cells + 1, spawn: .random), from: "c3")
        _ = try state.apply(.remove(ids: [cells + 1]), from: "c3")
        for _ in 0..<40 { _ = state.step() }
        _ = state.takeChanges()
        return state
    }

    func testTheRoomBecomesTheSnapshotAndItsCountersGoOn() throws {
        let saved = try past()
        var state = try present()
        let (tick, version, nextID) = (state.simulation.tick, state.simulation.version, state.simulation.nextID)
        let dataVersion = state.dataVersion
        let events = try state.restore(saved, moment: 1234, by: "c9")

        XCTAssertEqual(events.map(\.kind), [.restored, .params], "the parameters it brought back differ: told whole")
        XCTAssertEqual(events.map(\.by), ["c9", "c9"])
        XCTAssertEqual(events[1].detail, .params(saved.layout.parameters, changed: ["charge"]))
        guard case .restored(let moment, let ids, let pinned, let records, let links) = events[0].detail else { return XCTFail("\(events)") }
        XCTAssertEqual(moment, 1234)
        XCTAssertEqual(ids, [1, 2, 3, 4])
        XCTAssertEqual(pinned, [2])
        XCTAssertEqual(records, state.records, "the room's data now, as the data message has it")
        XCTAssertEqual(links.map(\.link), saved.layout.links)
        XCTAssertEqual(links.first?.attrs, attrs(#"{"w":2}"#))

        let simulation = state.simulation
        XCTAssertEqual(simulation.ids, saved.layout.cells.map(\.id))
        XCTAssertEqual(simulation.xs, saved.layout.cells.map(\.x))
        XCTAssertEqual(simulation.links, saved.layout.links)
        XCTAssertEqual(simulation.parameters, saved.layout.parameters)
        XCTAssertEqual(simulation.parameters.charge, 66)
        XCTAssertEqual(simulation.pinnedIDs, [2])
        XCTAssertEqual(simulation.radius(of: 4), 10)
        XCTAssertEqual(state.catalog, saved.catalog)
        XCTAssertEqual(state.ownership.runs, saved.owners)
        XCTAssertGreaterThanOrEqual(simulation.tick, tick, "ticks go on")
        XCTAssertGreaterThan(simulation.version, version, "a client never takes the new membership for one it saw")
        XCTAssertGreaterThan(state.dataVersion, dataVersion, "joiners get the new data")
        XCTAssertEqual(simulation.nextID, nextID, "ids go on from the higher next id")
        XCTAssertTrue(state.takeChanges().changes.isSuperset(of: [.membership, .positions, .pins]))

        // The next add hands out an id the room never had.
        let added = try state.apply(.add(count: 1, spawn: .random), from: "c1")
        XCTAssertEqual(added.first?.detail, .cells([nextID]))
    }

    func testARestoreThatKeepsTheParametersSaysNoParams() throws {
        var saved = try past()
        var state = try present()
        saved.layout.parameters = state.simulation.parameters
        let events = try state.restore(saved, moment: 0, by: "c1")
        XCTAssertEqual(events.map(\.kind), [.restored])
    }

    func testIdsGoOnFromTheSnapshotWhenItsNextIDIsHigher() throws {
        var saved = try past()
        saved.layout.nextID = 500
        var state = try present()
        _ = try state.restore(saved, moment: 0, by: "c1")
        XCTAssertEqual(state.simulation.nextID, 500)
    }

    /// What a refused restore must leave as it was.
    private struct Look: Equatable {
        let ids: [CellID], xs: [Double], links: [Link], tick: Int, version: Int, nextID: CellID
        let dataVersion: Int, catalog: CellCatalog, owners: [Ownership.Run], parameters: Parameters

        init(_ state: LayoutState) {
            let simulation = state.simulation
            (ids, xs, links, tick, version, nextID) = (simulation.ids, simulation.xs, simulation.links, simulation.tick,
                                                       simulation.version, simulation.nextID)
            (dataVersion, catalog, owners, parameters) = (state.dataVersion, state.catalog, state.ownership.runs, state.parameters)
        }
    }

    private func assertRefused(_ state: inout LayoutState, _ saved: SavedState, _ code: ProtocolError.Code, _ wording: String,
                               line: UInt = #line) {
        let before = Look(state)
        XCTAssertThrowsError(try state.restore(saved, moment: 0, by: "c1"), line: line) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, code, line: line)
            XCTAssertEqual((error as? ProtocolError)?.message.hasPrefix(wording), true, "\(error)", line: line)
        }
        XCTAssertEqual(Look(state), before, "a refused restore changes nothing", line: line)
        XCTAssertEqual(state.takeChanges().changes, [], line: line)
    }

    func testARestorePastMaxCellsOrMaxLinksIsRefusedAndChangesNothing() throws {
        let saved = try past()
        var cells = Limits()
        cells.maxCells = 3
        var state = try present(cells: 2, limits: cells)
        assertRefused(&state, saved, .limit, "restoring 4 cells would pass maxCells (3)")
        var links = Limits()
        links.maxLinks = 1
        state = try present(limits: links)
        assertRefused(&state, saved, .limit, "restoring 2 links would pass maxLinks (1)")
    }

    func testTheRoomsTogetherBoundARestoreAndItsCellsReplaceTheRoomsInTheBudget() throws {
        let saved = try past()
        let budget = CellBudget(limit: 6)
        var state = try present(cells: 2, budget: budget)
        budget.force(3)  // another room's cells
        XCTAssertEqual(budget.total, 5)
        assertRefused(&state, saved, .limit, "restoring 4 cells would pass maxTotalCells (6)")
        XCTAssertEqual(budget.total, 5, "the budget as it was")

        budget.give(1)  // the other room lost a cell: 2 + 4 now fit
        _ = try state.restore(saved, moment: 0, by: "c1")
        XCTAssertEqual(budget.total, 6, "the room's 2 cells given back, the restored 4 taken")
        _ = try state.apply(.clear, from: "c1")
        XCTAssertEqual(budget.total, 2)
    }

    func testADeletedRoomRefusesARestore() throws {
        let saved = try past()
        var state = try present()
        _ = try state.apply(.access(.delete), from: "c3")
        _ = state.takeChanges()
        assertRefused(&state, saved, .forbidden, "the room was deleted by its owner")
    }

    func testASnapshotTheEngineCannotTakeIsRefusedAndChangesNothing() throws {
        var saved = try past()
        saved.layout.cells[1].x = .nan
        var state = try present()
        assertRefused(&state, saved, .badRequest, "position must be finite")
    }
}
