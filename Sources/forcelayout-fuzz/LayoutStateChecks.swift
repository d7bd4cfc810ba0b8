import ForceLayout
import LayoutCore

extension MessagePathFuzzer {
    /// Applies the command to a layout of 8 cells (cell 2 pinned) through `LayoutState`, the
    /// type the simulation thread uses: a rejected command must change nothing, an accepted
    /// one exactly what it says; then a few steps, after which every position is finite and
    /// the frame (`FrameEncoder`) carries every coordinate as a number close to it.
    static func applyToSmallLayout(_ command: LayoutCommand, bytes: [UInt8]) {
        let simulation = Simulation(seed: 7)
        simulation.add(count: 8, spawn: .random)
        try? simulation.pin(2, x: 10, y: 20)
        var limits = Limits()
        limits.maxCells = layoutCap
        var state = LayoutState(simulation: simulation, limits: limits)
        let before = Layout(simulation)
        do throws(ProtocolError) {
            let events = try state.apply(command, from: "c1")
            check(command, applied: events, before: before, simulation, bytes: bytes)
        } catch {
            require(Layout(simulation) == before, "a rejected \(command) changed the layout (\(error.code))", bytes)
            return
        }
        for _ in 0..<3 { _ = state.step() }
        require(simulation.xs.allSatisfy(\.isFinite) && simulation.ys.allSatisfy(\.isFinite),
                "a position is not finite after stepping", bytes)
        checkFrame(simulation, bytes: bytes)
    }

    /// What a layout is made of, to compare before and after a command.
    private struct Layout: Equatable {
        let ids: [CellID], xs: [Double], ys: [Double], version: Int, pinned: [CellID], parameters: Parameters

        init(_ simulation: Simulation) {
            ids = simulation.ids; xs = simulation.xs; ys = simulation.ys; version = simulation.version
            pinned = simulation.pinnedIDs; parameters = simulation.parameters
        }
    }

    private static func check(_ command: LayoutCommand, applied events: [LayoutEvent], before: Layout,
                              _ simulation: Simulation, bytes: [UInt8]) {
        guard checkEffect(of: command, applied: events, before: before, simulation, bytes: bytes) else { return }
        // A pin always says so, even to where the cell already is; every other command says
        // something exactly when it changed something.
        if case .pin = command { return }
        require(events.isEmpty == (Layout(simulation) == before), "events \(events.map(\.kind)) disagree with the change", bytes)
    }

    /// Checks that `command` did what it says to `simulation`; whether its events are to be
    /// held to the change (not for an update, link or unlink: those change what `Layout`
    /// leaves out).
    private static func checkEffect(of command: LayoutCommand, applied events: [LayoutEvent], before: Layout,
                                    _ simulation: Simulation, bytes: [UInt8]) -> Bool {
        switch command {
        case .add(let count, _):
            require(simulation.count == before.ids.count + count && simulation.ids.prefix(before.ids.count) == before.ids[...],
                    "add \(count) gave \(simulation.count) cells", bytes)
        case .addCells(let cells, _):
            require(simulation.count == before.ids.count + cells.count && simulation.ids.prefix(before.ids.count) == before.ids[...],
                    "add \(cells.count) cells gave \(simulation.count) cells", bytes)
        case .update(let edits):
            require(edits.allSatisfy { simulation.contains($0.id) }, "update of a cell that is not there", bytes)
            return false
        case .link(let links):
            require(links.allSatisfy { simulation.links.contains($0.link) }, "link left a link out", bytes)
            return false
        case .unlink(let ends):
            require(ends.allSatisfy { end in !simulation.links.contains { Set([$0.source, $0.target]) == Set([end.source, end.target]) } },
                    "unlink left a link in", bytes)
            return false
        case .remove(let ids):
            require(simulation.count == before.ids.count - Set(ids).count && Set(ids).isDisjoint(with: simulation.ids),
                    "remove \(ids)", bytes)
        case .removeNewest(let count):
            require(simulation.ids == Array(before.ids.dropLast(count)), "remove newest \(count)", bytes)
        case .clear:
            require(simulation.count == 0, "clear", bytes)
        case .params:
            checkParams(applied: events, before: before, simulation, bytes: bytes)
        case .pin(let id, let x, let y, _):
            require(simulation.position(of: id).map { $0.x == x && $0.y == y } == true && simulation.isPinned(id),
                    "pin \(id) did not hold the cell at (\(x), \(y))", bytes)
        case .unpin(let id):
            require(!simulation.isPinned(id), "unpin \(id) left it pinned", bytes)
        case .access:
            // Made by the server, never decoded from a client: it moves nothing.
            return false
        case .point:
            // The room's pointers change, not the layout: nothing moves, no event.
            require(events.isEmpty, "point made events", bytes)
            return false
        case .restore:
            // From the room's history, which the layout alone does not hold: no event here.
            require(events.isEmpty, "restore made events without a history", bytes)
            return false
        case .undo:
            // Whatever it undid, every event it made says which one.
            require(events.allSatisfy { $0.undo != nil || $0.kind == .woke }, "undo made an event without undo", bytes)
            return false
        }
        return true
    }

    /// A parameter change names each parameter it changed once, and names some exactly when
    /// the values changed.
    private static func checkParams(applied events: [LayoutEvent], before: Layout, _ simulation: Simulation, bytes: [UInt8]) {
        let changed = events.first.flatMap { event -> [String]? in
            if case .params(_, let changed) = event.detail { return changed }
            return nil
        } ?? []
        require(Set(changed).count == changed.count, "a parameter reported changed twice", bytes)
        require(changed.isEmpty == (simulation.parameters == before.parameters), "changed names disagree with the values", bytes)
    }

    private static func checkFrame(_ simulation: Simulation, bytes: [UInt8]) {
        var encoder = FrameEncoder()
        let frame = encoder.encode(simulation)
        guard let value = try? JSONParser.parse(frame.withIDs.bytes),
              case .array(let written)? = value["xy"], written.count == 2 * simulation.count else {
            fail("the frame is not JSON with 2 numbers a cell", bytes)
        }
        for (index, value) in written.enumerated() {
            let actual = index % 2 == 0 ? simulation.xs[index / 2] : simulation.ys[index / 2]
            guard case .number(let number) = value,
                  abs(number - actual) <= (abs(actual) < NumberFormatting.wholeUnitsFrom ? 0.05 : 0.5) + 1e-9 else {
                fail("coordinate \(actual) written as \(value)", bytes)
            }
        }
    }
}
