import ForceLayout
import XCTest
@testable import LayoutCore

/// `undo`: every change kind's inverse puts the layout back as it was (ids, data, links,
/// parameters, pins, places, owners), and each refusal says what and who.
final class UndoTests: XCTestCase {
    private func state(cells: Int = 0, depth: Int = 100, maxCells: Int = 1000) -> LayoutState {
        let simulation = Simulation(seed: 7)
        var limits = Limits()
        limits.undoDepth = depth
        limits.maxCells = maxCells
        var state = LayoutState(simulation: simulation, limits: limits)
        if cells > 0 { _ = try? state.apply(.add(count: cells, spawn: .random), from: "c0") }
        _ = state.takeChanges()
        return state
    }

    /// Everything a change or its undo may alter, to compare before and after.
    private struct Picture: Equatable {
        var cells: [CellRecord]
        var links: [String]
        var data: [CellID: CellData]
        var params: Parameters
        var owners: [String?]

        init(_ state: LayoutState) {
            let simulation = state.simulation
            cells = simulation.snapshot().cells
            links = simulation.links.map { link in
                let attrs = state.catalog[link: link.source, link.target].map { String(decoding: $0.bytes, as: UTF8.self) } ?? "-"
                return "\(min(link.source, link.target))-\(max(link.source, link.target)) \(link.distance ?? -1) \(link.strength ?? -1) \(attrs)"
            }.sorted()
            data = state.catalog.data
            params = simulation.parameters
            owners = state.ownership.owners(of: simulation.ids)
        }
    }

    /// Applies `command` by `client` as a room's turn does, the bus numbering its events from `seq`.
    @discardableResult
    private func apply(_ state: inout LayoutState, _ command: LayoutCommand, by client: String,
                       seq: UInt64 = 1) throws -> [LayoutEvent] {
        let events = try state.apply(command, from: client)
        if !events.isEmpty { state.undo.published(seq: seq) }
        return events
    }

    private func undoRefusal(_ state: inout LayoutState, by client: String) -> ProtocolError? {
        do {
            _ = try state.apply(.undo, from: client)
            return nil
        } catch {
            return error
        }
    }

    private func attrs(_ text: String) -> Attrs { Attrs(bytes: Array(text.utf8)) }

    private func data(_ label: String, color: String? = nil) -> CellData { CellData(label: label, color: color) }

    /// Applies `command` (as `client`), undoes it (as `client`), and checks the layout is as before.
    private func assertUndone(_ state: inout LayoutState, _ command: LayoutCommand, by client: String = "c1",
                              kinds: [EventKind], file: StaticString = #filePath, line: UInt = #line) throws {
        let before = Picture(state)
        try apply(&state, command, by: client, seq: 41)
        XCTAssertNotEqual(Picture(state), before, "the command changed nothing", file: file, line: line)
        let events = try state.apply(.undo, from: client)
        XCTAssertEqual(events.map(\.kind).filter { $0 != .woke }, kinds, file: file, line: line)
        for event in events where event.kind != .woke {
            XCTAssertEqual(event.undo, 41, file: file, line: line)
            XCTAssertEqual(event.by, client, file: file, line: line)
            XCTAssertTrue(String(decoding: event.encodedTail, as: UTF8.self).contains(#""undo":41"#), file: file, line: line)
        }
        XCTAssertEqual(Picture(state), before, file: file, line: line)
        XCTAssertTrue(state.undo.steps(of: client).isEmpty, file: file, line: line)
    }

    func testAnAddIsRemoved() throws {
        var state = state(cells: 3)
        try assertUndone(&state, .add(count: 4, spawn: .random), kinds: [.removed])
        let cells = [NewCell(seed: CellSeed(x: 1, y: 2, radius: 9), data: data("a", color: "#ff0000")), NewCell()]
        try assertUndone(&state, .addCells(cells, spawn: .center), kinds: [.removed])
    }

    func testRemovedCellsComeBackWithIdsDataLinksPinsAndOwners() throws {
        var state = state(cells: 6)
        try apply(&state, .add(count: 2, spawn: .random), by: "c2")
        try apply(&state, .update([{ var edit = CellEdit(id: 3); edit.label = .set("three"); edit.radius = .set(14); edit.attrs = .set(attrs(#"{"w":1}"#)); return edit }()]), by: "c0")
        try apply(&state, .link([LinkRecord(Link(source: 3, target: 4, distance: 50, strength: 0.5), attrs: attrs(#"{"k":"v"}"#)),
                                 LinkRecord(Link(source: 3, target: 7)), LinkRecord(Link(source: 1, target: 2))]), by: "c0")
        try apply(&state, .pin(id: 4, x: 5, y: -6), by: "c0")
        for _ in 0..<10 { _ = state.step() }
        try assertUndone(&state, .remove(ids: [3, 4, 7]), kinds: [.added, .linked, .pinned])
        XCTAssertEqual(state.ownership.owners(of: [3, 4, 7, 8]), ["c0", "c0", "c2", "c2"])
        try assertUndone(&state, .removeNewest(count: 3), kinds: [.added, .linked])
        try assertUndone(&state, .clear, kinds: [.added, .linked, .pinned])
        XCTAssertEqual(state.simulation.pinnedIDs, [4])
    }

    func testParametersGoBackAndASlidersMovesAreOneStep() throws {
        var state = state(cells: 2)
        var change = ParameterChange()
        change.charge = 40
        change.collide = false
        try assertUndone(&state, .params(change), kinds: [.params])
        let start = state.simulation.parameters.charge
        for value in [20.0, 25, 30] {
            var move = ParameterChange()
            move.charge = value
            try apply(&state, .params(move), by: "c1")
        }
        XCTAssertEqual(state.undo.steps(of: "c1").count, 1, "a slider's moves within the window are one step")
        _ = try state.apply(.undo, from: "c1")
        XCTAssertEqual(state.simulation.parameters.charge, start)
        // Moved back to where it started: nothing is left to undo.
        var away = ParameterChange()
        away.charge = 33
        try apply(&state, .params(away), by: "c1")
        var back = ParameterChange()
        back.charge = start
        try apply(&state, .params(back), by: "c1")
        XCTAssertTrue(state.undo.steps(of: "c1").isEmpty)
    }

    func testLinksAndUnlinksGoBackWithTheirDistanceStrengthAndAttrs() throws {
        var state = state(cells: 4)
        try assertUndone(&state, .link([LinkRecord(Link(source: 1, target: 2, distance: 12), attrs: attrs(#"{"a":1}"#))]), kinds: [.unlinked])
        try apply(&state, .link([LinkRecord(Link(source: 1, target: 2, distance: 12, strength: 2), attrs: attrs(#"{"a":1}"#)),
                                 LinkRecord(Link(source: 3, target: 4))]), by: "c0")
        try assertUndone(&state, .unlink([LinkEnds(source: 2, target: 1), LinkEnds(source: 3, target: 4)]), kinds: [.linked])
    }

    func testAnUpdateGoesBackWithDataRadiusAndPlace() throws {
        var state = state(cells: 3)
        try apply(&state, .update([{ var edit = CellEdit(id: 2); edit.color = .set("#00ff00"); edit.key = .set(.number(7)); return edit }()]), by: "c0")
        var edit = CellEdit(id: 2)
        edit.label = .set("two")
        edit.color = .reset
        edit.radius = .set(30)
        edit.x = 100
        edit.y = 200
        var other = CellEdit(id: 3)
        other.group = .set("g")
        try assertUndone(&state, .update([edit, other]), kinds: [.updated])
    }

    func testPinsGoBackAndADragIsNoStep() throws {
        var state = state(cells: 3)
        try assertUndone(&state, .pin(id: 1, x: 10, y: 10), kinds: [.unpinned])
        try apply(&state, .pin(id: 2, x: 1, y: 1), by: "c0")
        try assertUndone(&state, .pin(id: 2, x: 50, y: 60), kinds: [.pinned])
        try assertUndone(&state, .unpin(id: 2), kinds: [.pinned])
        // A free cell's drag, and its drop.
        try apply(&state, .pin(id: 3, x: 4, y: 4, drag: true), by: "c1")
        try apply(&state, .pin(id: 3, x: 5, y: 5, drag: true), by: "c1")
        try apply(&state, .unpin(id: 3), by: "c1")
        XCTAssertTrue(state.undo.steps(of: "c1").isEmpty)
        // A pinned cell's drag is one step.
        for x in [7.0, 8, 9] { try apply(&state, .pin(id: 2, x: x, y: 0), by: "c1") }
        XCTAssertEqual(state.undo.steps(of: "c1").count, 1)
        _ = try state.apply(.undo, from: "c1")
        XCTAssertEqual(state.simulation.position(of: 2)?.x, 1)
    }

    func testUndoGoesBackOneChangeAtATime() throws {
        var state = state()
        try apply(&state, .add(count: 2, spawn: .random), by: "c1", seq: 5)
        try apply(&state, .link([LinkRecord(Link(source: 1, target: 2))]), by: "c1", seq: 6)
        try apply(&state, .update([{ var edit = CellEdit(id: 1); edit.label = .set("x"); return edit }()]), by: "c1", seq: 7)
        XCTAssertEqual(state.undo.takeChanged().map { "\($0.client) \($0.count) \($0.next ?? "-")" }, ["c1 3 update cell 1"])
        XCTAssertEqual(try state.apply(.undo, from: "c1").first?.undo, 7)
        XCTAssertEqual(try state.apply(.undo, from: "c1").first?.undo, 6)
        XCTAssertEqual(state.undo.takeChanged().map { "\($0.client) \($0.count) \($0.next ?? "-")" }, ["c1 1 add 2 cells"])
        XCTAssertEqual(try state.apply(.undo, from: "c1").first?.undo, 5)
        XCTAssertEqual(state.simulation.count, 0)
        XCTAssertEqual(undoRefusal(&state, by: "c1")?.code, .conflict)
        XCTAssertTrue(undoRefusal(&state, by: "c1")!.message.contains("nothing of yours to undo"))
    }

    func testAChangeSomeoneBuiltOnIsRefusedNamingWhoAndWhat() throws {
        var state = state()
        try apply(&state, .add(count: 3, spawn: .random), by: "c1")
        try apply(&state, .add(count: 2, spawn: .random), by: "c2")
        try apply(&state, .link([LinkRecord(Link(source: 2, target: 4))]), by: "c2")
        let before = Picture(state)
        let error = undoRefusal(&state, by: "c1")
        XCTAssertEqual(error?.code, .conflict)
        XCTAssertEqual(error?.message, "c2 linked cell 2 since you added it: add 3 cells cannot be undone (taken off your undo list)")
        XCTAssertEqual(Picture(state), before, "a refused undo changes nothing")
        XCTAssertTrue(state.undo.steps(of: "c1").isEmpty, "the refused step is off the list")
        // c2's own changes undo as they were made.
        _ = try state.apply(.undo, from: "c2")
        _ = try state.apply(.undo, from: "c2")
        XCTAssertEqual(state.simulation.ids, [1, 2, 3])
    }

    func testOnceTheOtherUndoesWhatItBuiltTheChangeUndoes() throws {
        var state = state()
        try apply(&state, .add(count: 2, spawn: .random), by: "c1")
        try apply(&state, .add(count: 1, spawn: .random), by: "c2")
        try apply(&state, .link([LinkRecord(Link(source: 1, target: 3))]), by: "c2")
        _ = try state.apply(.undo, from: "c2")
        _ = try state.apply(.undo, from: "c1")
        XCTAssertEqual(state.simulation.ids, [3])
    }

    func testEachKindOfBuildingOnIsRefused() throws {
        // (what c1 does, what c2 does after, the refusal's start)
        var change = ParameterChange()
        change.charge = 30
        var other = ParameterChange()
        other.charge = 31
        let label = { (id: CellID, text: String) -> LayoutCommand in
            var edit = CellEdit(id: id)
            edit.label = .set(text)
            return .update([edit])
        }
        let cases: [(LayoutCommand, LayoutCommand, String)] = [
            (.params(change), .params(other), "c2 changed charge since you changed it"),
            (label(1, "a"), label(1, "b"), "c2 updated cell 1 since you updated it"),
            (label(1, "a"), .pin(id: 1, x: 0, y: 0), "c2 pinned cell 1 since you updated it"),
            (.pin(id: 1, x: 3, y: 3), .unpin(id: 1), "c2 unpinned cell 1 since you pinned it"),
            (.link([LinkRecord(Link(source: 1, target: 2))]), .unlink([LinkEnds(source: 2, target: 1)]),
             "c2 unlinked the link between cells 1 and 2 since you linked it"),
            (.unlink([LinkEnds(source: 2, target: 3)]), .link([LinkRecord(Link(source: 3, target: 2))]),
             "c2 linked the link between cells 2 and 3 since you unlinked it"),
            (.remove(ids: [4]), .remove(ids: [3]), "cell 3 is gone (c2 removed it)"),
        ]
        for (mine, theirs, expected) in cases {
            var state = state(cells: 4)
            try apply(&state, .link([LinkRecord(Link(source: 2, target: 3)), LinkRecord(Link(source: 3, target: 4))]), by: "c0")
            try apply(&state, mine, by: "c1")
            try apply(&state, theirs, by: "c2")
            let before = Picture(state)
            let error = undoRefusal(&state, by: "c1")
            XCTAssertEqual(error?.code, .conflict, "\(mine)")
            XCTAssertTrue(error?.message.hasPrefix(expected) == true, "\(error?.message ?? "none") for \(mine)")
            XCTAssertEqual(Picture(state), before)
        }
        // Cells removed by someone else: who and how.
        var state = state()
        try apply(&state, .add(count: 2, spawn: .random), by: "c1")
        try apply(&state, .clear, by: "c2")
        XCTAssertEqual(undoRefusal(&state, by: "c1")?.message.hasPrefix("c2 cleared cell 1 since you added it"), true)
    }

    func testAChangeThatNeedsRoomWaitsOnTheList() throws {
        var state = state(maxCells: 3)
        try apply(&state, .add(count: 3, spawn: .random), by: "c0")
        try apply(&state, .remove(ids: [2]), by: "c1")
        try apply(&state, .add(count: 1, spawn: .random), by: "c2")
        XCTAssertEqual(undoRefusal(&state, by: "c1")?.code, .limit)
        XCTAssertEqual(state.undo.steps(of: "c1").count, 1, "a step refused for a limit stays")
        try apply(&state, .remove(ids: [4]), by: "c2")
        _ = try state.apply(.undo, from: "c1")
        XCTAssertEqual(state.simulation.ids, [1, 2, 3])
    }

    func testListsAreBoundedAndForgotten() throws {
        var state = state(depth: 3)
        for _ in 0..<5 { try apply(&state, .add(count: 1, spawn: .random), by: "c1") }
        XCTAssertEqual(state.undo.steps(of: "c1").map(\.what), ["add cell 3", "add cell 4", "add cell 5"])
        try apply(&state, .add(count: 1, spawn: .random), by: "c2")
        state.forgetUndo(of: "c1")
        XCTAssertTrue(state.undo.steps(of: "c1").isEmpty)
        XCTAssertEqual(state.forgetUndo(), ["c2"])
        XCTAssertEqual(undoRefusal(&state, by: "c2")?.code, .conflict)

        var off = self.state(depth: 0)
        try apply(&off, .add(count: 1, spawn: .random), by: "c1")
        XCTAssertEqual(undoRefusal(&off, by: "c1")?.code, .limit)

        // The room's lists together hold at most 2 × (maxCells + maxLinks) cells and links.
        var limits = Limits()
        limits.maxCells = 10
        limits.maxLinks = 0
        var small = LayoutState(simulation: Simulation(seed: 1), limits: limits)
        _ = try small.apply(.add(count: 8, spawn: .random), from: "c1")
        _ = try small.apply(.removeNewest(count: 8), from: "c1")
        _ = try small.apply(.add(count: 8, spawn: .random), from: "c2")
        XCTAssertLessThanOrEqual(small.undo.weight, 20)
        XCTAssertEqual(small.undo.steps(of: "c1").map(\.what), ["remove 8 cells"], "the room's oldest step went first")
        XCTAssertEqual(small.undo.steps(of: "c2").count, 1)
    }

    func testOwnersComeBackInsideAnotherClientsRun() {
        var ownership = Ownership()
        ownership.record([1, 2, 3], by: "c1")
        ownership.record([4, 5], by: "c2")
        ownership.record([6, 7], by: "c1")
        _ = ownership.compact(to: [1, 7])
        XCTAssertEqual(ownership.runs.count, 1, "c1's runs merged over c2's removed cells")
        ownership.restore([(id: 4, client: "c2"), (id: 5, client: "c2"), (id: 6, client: "c1")])
        XCTAssertEqual(ownership.owners(of: [1, 2, 3, 4, 5, 6, 7]), ["c1", "c1", "c1", "c2", "c2", "c1", "c1"])
        XCTAssertNil(Ownership.problem(ownership.runs, largestID: 7))
    }
}
