import ForceLayout

/// `undo`: the client's last change is undone with ordinary events (each carrying `undo`, the
/// seq of the event it undoes), or refused with `conflict` and taken off its list when someone
/// else built on it since or the cells it needs are gone. A step refused for a limit stays.
extension LayoutState {
    mutating func undoLast(by client: String) throws(ProtocolError) -> [LayoutEvent] {
        guard undo.isOn else { throw ProtocolError(.limit, "undo is off on this server (undoDepth 0)") }
        guard let step = undo.top(of: client) else {
            throw ProtocolError(.conflict, "nothing of yours to undo: none of your changes in this room is left on your list")
        }
        if let why = refusal(of: step, by: client) {
            undo.pop(client, undone: false)
            throw ProtocolError(.conflict, "\(why): \(step.what) cannot be undone (taken off your undo list)")
        }
        if case .moment = step.inverse {
            // Restoring records the way back as a new step (undoing this undo): this one goes
            // first. (Refused for a limit, it is not kept: the room was made under the limits.)
            undo.pop(client, undone: true)
            let (events, changed) = try undone(step, by: client)
            return finish(events, changed)
        }
        let (events, changed) = try undone(step, by: client)
        undo.pop(client, undone: true)
        return finish(events, changed)
    }

    /// The layout goes to how it was this connection's undo steps' start (a `restored` room):
    /// every list goes; returns the clients that had one (their `undoable` is due).
    @discardableResult
    public mutating func forgetUndo() -> [String] { undo.clear() }

    /// `client` left the room: its list goes (its id never comes again).
    public mutating func forgetUndo(of client: String) { undo.forget(client) }

    /// Why `step` cannot be undone without forcing it, or nil.
    private func refusal(of step: UndoStep, by client: String) -> String? {
        for key in step.guarded {
            guard let touch = undo.touch(of: key), touch.stamp != step.stamp, touch.client != client else { continue }
            return "\(touch.client) \(touch.verb) \(key.described) since you \(step.verb) it"
        }
        for id in cellsNeeded(by: step) where !simulation.contains(id) {
            return "cell \(id) is gone\(whoRemoved(id))"
        }
        if case .moment = step.inverse, let other = undo.changed(after: step.stamp, byOtherThan: client) {
            return "\(other) changed the room since you restored it"
        }
        if case .restore(let cells, _) = step.inverse, let back = cells.first(where: { simulation.contains($0.record.id) }) {
            return "cell \(back.record.id) is there again"
        }
        return nil
    }

    /// " (c3 removed it)", when the ledger knows.
    private func whoRemoved(_ id: CellID) -> String {
        guard let touch = undo.touch(of: .cell(id)), touch.verb == "removed" || touch.verb == "cleared" else { return "" }
        return " (\(touch.client) \(touch.verb == "cleared" ? "cleared the room" : "removed it"))"
    }

    /// The cells that must be there for `step` to be undone.
    private func cellsNeeded(by step: UndoStep) -> [CellID] {
        switch step.inverse {
        case .remove(let ids): ids
        case .restore(let cells, let links):
            // The other ends of their links.
            Array(Set(links.flatMap { [$0.link.source, $0.link.target] }).subtracting(cells.map(\.record.id))).sorted()
        case .params: []
        case .unlink(let ends): ends.flatMap { [$0.source, $0.target] }
        case .link(let links): links.flatMap { [$0.link.source, $0.link.target] }
        case .update(let cells): cells.map(\.id)
        case .pin(let id, _, _, _): [id]
        case .moment: []
        }
    }

    /// Applies `step`'s inverse as the commands that make it, each event marked with the seq
    /// it undoes. Checked before (`refusal`): only a limit can refuse it now, before any change.
    private mutating func undone(_ step: UndoStep, by client: String) throws(ProtocolError) -> ([LayoutEvent], Changes) {
        var made: [(LayoutEvent, Changes)?] = []
        let none: IDReserver = { _, _ throws(ProtocolError) in }
        switch step.inverse {
        case .remove(let ids):
            made.append(try change(.remove(ids: ids), by: client, reserveIDs: none))
        case .restore(let cells, let links):
            made += try restore(cells, links: links, by: client)
        case .params(let previous):
            made.append(try change(.params(previous), by: client, reserveIDs: none))
        case .unlink(let ends):
            made.append(try change(.unlink(ends), by: client, reserveIDs: none))
        case .link(let links):
            made.append(try change(.link(links), by: client, reserveIDs: none))
        case .update(let cells):
            made.append(try change(.update(cells.map(Self.edit)), by: client, reserveIDs: none))
        case .pin(let id, let pinned, let x, let y):
            if pinned {
                made.append(try change(.pin(id: id, x: x, y: y), by: client, reserveIDs: none))
            } else {
                // Back where it was, and free.
                try Self.checked { () throws(LayoutError) in try simulation.move(id, x: x, y: y) }
                made.append(try change(.unpin(id: id), by: client, reserveIDs: none) ?? event(.unpinned, by: client, .unpinned(id: id), .positions))
            }
        case .moment(let saved, let at):
            // The restore itself records the way back again (undoing this undo).
            made += try restore(saved, moment: at, by: client).map { ($0, [.membership, .positions, .pins, .other]) }
        }
        var events: [LayoutEvent] = []
        var changed: Changes = []
        for case let (event, change)? in made {
            events.append(LayoutEvent(kind: event.kind, by: event.by, tick: event.tick, detail: event.detail, at: event.at,
                                      undo: step.seq))
            changed.formUnion(change)
        }
        return (events, changed)
    }

    /// The edit that puts a cell's data, radius and place back.
    private static func edit(_ before: CellBefore) -> CellEdit {
        var edit = CellEdit(id: before.id)
        edit.label = before.data.label.map(FieldEdit.set) ?? .reset
        edit.color = before.data.color.map(FieldEdit.set) ?? .reset
        edit.group = before.data.group.map(FieldEdit.set) ?? .reset
        edit.key = before.data.key.map(FieldEdit.set) ?? .reset
        edit.attrs = before.data.attrs.map(FieldEdit.set) ?? .reset
        edit.radius = before.radius.map(FieldEdit.set) ?? .reset
        edit.x = before.position?.x
        edit.y = before.position?.y
        return edit
    }

    /// Removed cells back with their ids, places, pins, radii, data and owners (`added`, and
    /// `pinned` for each pinned one), then their links (`linked`); all or nothing.
    private mutating func restore(_ cells: [RemovedCell], links: [LinkRecord],
                                  by client: String) throws(ProtocolError) -> [(LayoutEvent, Changes)?] {
        guard simulation.links.count + links.count <= limits.maxLinks else {
            throw ProtocolError(.limit, "bringing back \(links.count) links would pass maxLinks (\(limits.maxLinks)): the layout has \(simulation.links.count)")
        }
        try admit(cells.count)
        do throws(LayoutError) {
            try simulation.restore(cells.map(\.record))
        } catch {
            budget?.give(cells.count)
            throw ProtocolError(.conflict, Self.describe(error))
        }
        let sorted = cells.sorted { $0.record.id < $1.record.id }
        ownership.restore(sorted.compactMap { cell in cell.owner.map { (id: cell.record.id, client: $0) } })
        var data: [CellRecordData] = []
        for cell in sorted where !cell.data.isEmpty || cell.record.radius != nil {
            catalog[cell.record.id] = cell.data
            data.append(record(of: cell.record.id))
        }
        dataVersion += 1
        var made: [(LayoutEvent, Changes)?] = [event(.added, by: client, .added(sorted.map(\.record.id), data: data),
                                                    [.membership, .pins, .data])]
        if !links.isEmpty {
            made.append(try change(.link(links), by: client, reserveIDs: { _, _ throws(ProtocolError) in }))
            // Linking places a cell linked for the first time at its neighbours: back where it was.
            for cell in sorted where !cell.record.pinned {
                guard let at = simulation.position(of: cell.record.id), at.x != cell.record.x || at.y != cell.record.y else { continue }
                try Self.checked { () throws(LayoutError) in try simulation.move(cell.record.id, x: cell.record.x, y: cell.record.y) }
            }
        }
        for cell in sorted where cell.record.pinned {
            made.append(event(.pinned, by: client, .pinned(id: cell.record.id, x: cell.record.x, y: cell.record.y), .pins))
        }
        return made
    }
}
