import ForceLayout
import XCTest
@testable import LayoutCore

final class LayoutStateTests: XCTestCase {
    private func state(cells: Int = 0, maxCells: Int = 100) -> LayoutState {
        let simulation = Simulation(seed: 3)
        simulation.add(count: cells, spawn: .random)
        var limits = Limits()
        limits.maxCells = maxCells
        var state = LayoutState(simulation: simulation, limits: limits)
        _ = state.takeChanges()
        return state
    }

    private func kinds(_ events: [LayoutEvent]) -> [EventKind] { events.map(\.kind) }

    private func params(_ set: (inout ParameterChange) -> Void) -> LayoutCommand {
        var change = ParameterChange()
        set(&change)
        return .params(change)
    }

    private func settle(_ state: inout LayoutState) -> Int {
        var steps = 0
        while !state.settled && steps < 10_000 {
            _ = state.step()
            steps += 1
        }
        return steps
    }

    func testAnEmptyLayoutIsSettledAndAnAddWakesIt() throws {
        var state = state()
        XCTAssertTrue(state.settled)
        XCTAssertFalse(state.isStepping)
        let events = try state.apply(.add(count: 3, spawn: .random), from: "c1")
        XCTAssertEqual(kinds(events), [.added, .woke])
        XCTAssertEqual(events[0].detail, .cells([1, 2, 3]))
        XCTAssertEqual(events[0].by, "c1")
        XCTAssertTrue(state.isStepping)
        XCTAssertEqual(state.takeChanges().changes, .membership)
    }

    func testSteppingComesToRestOnceAndSaysSo() {
        var state = state(cells: 30)
        XCTAssertFalse(state.settled)
        var settledEvents = 0
        var steps = 0
        while !state.settled && steps < 10_000 {
            settledEvents += state.step().filter { $0.kind == .settled }.count
            steps += 1
        }
        XCTAssertTrue(state.settled)
        XCTAssertEqual(settledEvents, 1)
        XCTAssertEqual(state.step(), [], "a settled layout does not step")
        XCTAssertEqual(state.simulation.tick, steps)
        XCTAssertTrue(state.takeChanges().changes.needsFrame)
    }

    func testAddPastMaxCellsIsRefusedAndChangesNothing() {
        var state = state(cells: 8, maxCells: 10)
        XCTAssertThrowsError(try state.apply(.add(count: 3, spawn: .random), from: "c1")) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .limit)
            XCTAssertEqual((error as? ProtocolError)?.message, "adding 3 would pass maxCells (10): the layout has 8")
        }
        XCTAssertEqual(state.simulation.count, 8)
        XCTAssertEqual(state.takeChanges().changes, [])
        XCTAssertNoThrow(try state.apply(.add(count: 2, spawn: .random), from: "c1"))
    }

    func testTheTotalOverRoomsBoundsAddsAndRemovalsGiveBack() throws {
        let budget = CellBudget(limit: 12)
        budget.force(5)  // another room's cells
        let simulation = Simulation(seed: 3)
        var state = LayoutState(simulation: simulation, limits: Limits(), budget: budget)
        _ = try state.apply(.add(count: 4, spawn: .random), from: "c1")
        XCTAssertEqual(budget.total, 9)
        XCTAssertThrowsError(try state.apply(.add(count: 4, spawn: .random), from: "c1")) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .limit)
            XCTAssertEqual((error as? ProtocolError)?.message, "adding 4 would pass maxTotalCells (12): the rooms hold 9")
        }
        XCTAssertEqual(state.simulation.count, 4)
        // An add the id reserver refuses takes nothing from the total.
        XCTAssertThrowsError(try state.apply(.add(count: 2, spawn: .random), from: "c1") { _, _ throws(ProtocolError) in
            throw ProtocolError(.unavailable, "no ids")
        })
        XCTAssertEqual(budget.total, 9)
        _ = try state.apply(.remove(ids: [1]), from: "c1")
        _ = try state.apply(.removeNewest(count: 1), from: "c1")
        XCTAssertEqual(budget.total, 7)
        _ = try state.apply(.clear, from: "c1")
        XCTAssertEqual(budget.total, 5)
    }

    func testAStateFileCanSayTheLayoutRests() {
        let simulation = Simulation(seed: 3)
        simulation.add(count: 5, spawn: .random)
        // Restored cells step until the engine finds them at rest, unless the file says they are.
        XCTAssertTrue(LayoutState(simulation: simulation, limits: Limits()).isStepping)
        XCTAssertFalse(LayoutState(simulation: simulation, limits: Limits(), settled: true).isStepping)
    }

    func testAnAddTheIDReserverRefusesHandsOutNothing() {
        var state = state()
        XCTAssertThrowsError(try state.apply(.add(count: 5, spawn: .random), from: "c1") { count, reserving throws(ProtocolError) in
            XCTAssertEqual(count, 5)
            XCTAssertEqual(reserving.simulation.nextID, 1)
            throw ProtocolError(.unavailable, "no ids")
        })
        XCTAssertEqual(state.simulation.count, 0)
        XCTAssertEqual(state.simulation.nextID, 1)
        XCTAssertTrue(state.settled)
    }

    func testRemovalsAndClear() throws {
        var state = state(cells: 5)
        XCTAssertEqual(try state.apply(.remove(ids: [2, 4, 2]), from: "c2").first?.detail, .cells([2, 4]))
        XCTAssertThrowsError(try state.apply(.remove(ids: [1, 99]), from: "c2")) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .badRequest)
            XCTAssertEqual((error as? ProtocolError)?.message, "unknown cell id 99")
        }
        XCTAssertEqual(state.simulation.ids, [1, 3, 5])
        XCTAssertEqual(try state.apply(.removeNewest(count: 1), from: "c2").first?.detail, .cells([5]))
        XCTAssertEqual(kinds(try state.apply(.clear, from: "c2")).first, .cleared)
        XCTAssertEqual(try state.apply(.clear, from: "c2"), [], "clearing nothing says nothing")
        XCTAssertEqual(try state.apply(.removeNewest(count: 3), from: "c2"), [])
        let changes = state.takeChanges()
        XCTAssertTrue(changes.changes.contains([.membership, .pins]))
        XCTAssertEqual(changes.pinned, [])
    }

    func testADragPinEndsWithItsConnectionAPinForGoodStays() throws {
        var state = state(cells: 4)
        _ = try state.apply(.pin(id: 1, x: 1, y: 1, drag: true), from: "c1")
        _ = try state.apply(.pin(id: 2, x: 2, y: 2), from: "c1")
        _ = try state.apply(.pin(id: 3, x: 3, y: 3, drag: true), from: "c1")
        _ = try state.apply(.pin(id: 3, x: 3, y: 3), from: "c1")  // the drop: pinned for good
        _ = try state.apply(.pin(id: 4, x: 4, y: 4, drag: true), from: "c2")
        XCTAssertEqual(state.releaseDrags(of: "c9"), [])
        let released = state.releaseDrags(of: "c1")
        XCTAssertEqual(released.filter { $0.kind == .unpinned }.map(\.detail), [.unpinned(id: 1)])
        XCTAssertNil(released.first?.by)
        XCTAssertEqual(state.simulation.pinnedIDs, [2, 3, 4])
        XCTAssertEqual(state.releaseDrags(of: "c1"), [], "released once")
        _ = try state.apply(.unpin(id: 4), from: "c3")
        _ = try state.apply(.pin(id: 4, x: 0, y: 0), from: "c3")
        XCTAssertEqual(state.releaseDrags(of: "c2"), [], "unpinned and pinned again by another: not c2's any more")
        XCTAssertEqual(state.simulation.pinnedIDs, [2, 3, 4])
    }

    func testPinsAndUnpins() throws {
        var state = state(cells: 3)
        XCTAssertEqual(try state.apply(.pin(id: 2, x: 5, y: -5), from: "c1").first?.detail, .pinned(id: 2, x: 5, y: -5))
        XCTAssertEqual(state.takeChanges().pinned, [2])
        XCTAssertThrowsError(try state.apply(.pin(id: 9, x: 0, y: 0), from: "c1"))
        XCTAssertEqual(try state.apply(.unpin(id: 1), from: "c1"), [], "unpinning a free cell says nothing")
        XCTAssertThrowsError(try state.apply(.unpin(id: 9), from: "c1")) { error in
            XCTAssertEqual((error as? ProtocolError)?.message, "unknown cell id 9")
        }
        XCTAssertEqual(kinds(try state.apply(.unpin(id: 2), from: "c1")), [.unpinned])
        let changes = state.takeChanges()
        XCTAssertEqual(changes.pinned, [])
        XCTAssertFalse(changes.changes.needsFrame, "an unpin moves nothing until the next step")
    }

    func testParametersChangeOnlyWhenTheyDiffer() throws {
        var state = state(cells: 2)
        XCTAssertLessThan(settle(&state), 10_000)
        _ = state.takeChanges()
        let same = try state.apply(params { $0.charge = state.parameters.charge }, from: "c1")
        XCTAssertEqual(same, [])
        XCTAssertTrue(state.settled)
        let events = try state.apply(params { $0.charge = 30 }, from: "c1")
        XCTAssertEqual(kinds(events), [.params, .woke])
        XCTAssertEqual(state.parameters.charge, 30)
        if case .params(_, let changed) = events[0].detail { XCTAssertEqual(changed, ["charge"]) } else { XCTFail() }
        XCTAssertEqual(state.takeChanges().changes, .other)
    }

    func testPausedLayoutsDoNotStep() throws {
        var state = state(cells: 4)
        _ = try state.apply(params { $0.paused = true }, from: "c1")
        XCTAssertFalse(state.isStepping)
        XCTAssertEqual(state.step(), [])
        XCTAssertEqual(state.simulation.tick, 0)
    }

    func testOwnershipFollowsWhoAdded() throws {
        var state = state()
        _ = try state.apply(.add(count: 2, spawn: .random), from: "c1")
        _ = try state.apply(.add(count: 3, spawn: .random), from: "c2")
        _ = try state.apply(.remove(ids: [2]), from: "c2")
        XCTAssertEqual(state.ownership.compact(to: state.simulation.ids), [
            .init(client: "c1", first: 1, last: 1), .init(client: "c2", first: 3, last: 5),
        ])
    }

    func testEverythingIsDueAtFirst() {
        let simulation = Simulation(seed: 1)
        simulation.add(count: 2, spawn: .random)
        try? simulation.pin(1, x: 0, y: 0)
        var state = LayoutState(simulation: simulation, limits: Limits())
        let first = state.takeChanges()
        XCTAssertTrue(first.changes.needsFrame)
        XCTAssertEqual(first.pinned, [1])
        XCTAssertEqual(state.takeChanges().changes, [])
    }
}
