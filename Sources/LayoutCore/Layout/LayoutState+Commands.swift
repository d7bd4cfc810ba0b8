import ForceLayout

/// Each command's validation and effect: the event it causes and what it changed, or nil
/// when it changes nothing.
extension LayoutState {
    /// The pointer a `point` command from `client` sets, checked against the layout (a cell
    /// that does not exist is refused as other commands refuse it); nil for any other command.
    /// It changes nothing here: pointers are the room's (`Pointers`).
    public func pointer(for command: LayoutCommand, from client: String) throws(ProtocolError) -> Pointer? {
        guard case .point(let id, let name) = command else { return nil }
        guard !access.deleted else { throw ProtocolError(.forbidden, "the room was deleted by its owner") }
        if let id, !simulation.contains(id) { throw ProtocolError(.badRequest, Self.describe(.unknownCell(id))) }
        return Pointer(client: client, name: name, id: id)
    }

    mutating func change(_ command: LayoutCommand, by client: String,
                         reserveIDs: IDReserver) throws(ProtocolError) -> (LayoutEvent, Changes)? {
        switch command {
        case .add(let count, let spawn):
            return try add(count, spawn: spawn, by: client, reserveIDs: reserveIDs)
        case .addCells, .update, .link, .unlink:
            return try changeData(command, by: client, reserveIDs: reserveIDs)
        case .remove(let ids):
            let removed = try Self.checked { () throws(LayoutError) in try simulation.remove(ids: ids) }
            forget(removed)
            return event(.removed, by: client, .cells(removed), [.membership, .pins])
        case .removeNewest(let count):
            let removed = simulation.removeNewest(count)
            forget(removed)
            return removed.isEmpty ? nil : event(.removed, by: client, .cells(removed), [.membership, .pins])
        case .clear:
            let removed = simulation.clear()
            forget(removed)
            return removed.isEmpty ? nil : event(.cleared, by: client, .cells(removed), [.membership, .pins])
        case .params(let change):
            let (parameters, changed) = change.applied(to: simulation.parameters)
            guard !changed.isEmpty else { return nil }
            simulation.parameters = parameters
            return event(.params, by: client, .params(parameters, changed: changed), .other)
        case .pin(let id, let x, let y, let drag):
            try Self.checked { () throws(LayoutError) in try simulation.pin(id, x: x, y: y) }
            // The last pin says who holds it: a drag's connection, or nobody (a pin for good).
            dragPins[id] = drag ? client : nil
            return event(.pinned, by: client, .pinned(id: id, x: x, y: y), [.positions, .pins])
        case .unpin(let id):
            guard simulation.isPinned(id) else {
                if simulation.contains(id) { return nil }
                throw ProtocolError(.badRequest, Self.describe(.unknownCell(id)))
            }
            try Self.checked { () throws(LayoutError) in try simulation.unpin(id) }
            dragPins[id] = nil
            return event(.unpinned, by: client, .unpinned(id: id), [.pins, .other])
        case .access(.delete):
            guard !access.deleted else { return nil }
            let removed = simulation.clear()
            forget(removed)
            access.deleted = true
            return event(.deleted, by: client, .cells(removed), [.membership, .pins, .access])
        case .undo:
            // Not one change: `apply` hands it to `undoLast` (LayoutState+Undo.swift).
            return nil
        case .point:
            // Not the layout's: the room's pointers change (`RoomLayout`, `pointer(for:)`).
            return nil
        case .restore:
            // From the room's history, which the layout does not hold: `RoomLayout` rebuilds the
            // moment and hands it to `restore(_:moment:by:)`.
            return nil
        case .access(let change):
            var next = access
            switch change {
            case .mode(let mode): next.mode = mode
            case .links(let links): next.links = links
            case .delete: return nil
            }
            guard next != access else { return nil }
            let rotated = next.links == access.links ? [] : next.links?.rotated(since: access.links) ?? []
            access = next
            return event(.access, by: client, .access(mode: next.mode, rotated: rotated), .access)
        }
    }

    /// Removed cells give back their budget, and their data and links go (the engine drops
    /// the links).
    private mutating func forget(_ removed: [CellID]) {
        budget?.give(removed.count)
        guard !removed.isEmpty else { return }
        for id in removed { dragPins[id] = nil }
        catalog.remove(removed)
        dataVersion += 1
    }

    /// Takes `count` cells from the room's and the server's limits, or throws `limit`.
    mutating func admit(_ count: Int) throws(ProtocolError) {
        guard simulation.count + count <= limits.maxCells else {
            throw ProtocolError(.limit, "adding \(count) would pass maxCells (\(limits.maxCells)): the layout has \(simulation.count)")
        }
        if let budget, !budget.take(count) {
            throw ProtocolError(.limit, "adding \(count) would pass maxTotalCells (\(budget.limit)): the rooms hold \(budget.total)")
        }
    }

    private mutating func add(_ count: Int, spawn: Spawn, by client: String,
                              reserveIDs: IDReserver) throws(ProtocolError) -> (LayoutEvent, Changes)? {
        try admit(count)
        do {
            try reserveIDs(count, self)
        } catch {
            budget?.give(count)
            throw error
        }
        let ids = simulation.add(count: count, spawn: spawn)
        ownership.record(ids, by: client)
        return event(.added, by: client, .cells(ids), .membership)
    }

    func event(_ kind: EventKind, by client: String, _ detail: LayoutEvent.Detail,
                       _ changed: Changes) -> (LayoutEvent, Changes) {
        (LayoutEvent(kind: kind, by: client, tick: simulation.tick, detail: detail), changed)
    }

    /// Runs an engine call, turning its error into the client's `bad_request`.
    @discardableResult
    static func checked<T>(_ body: () throws(LayoutError) -> T) throws(ProtocolError) -> T {
        do {
            return try body()
        } catch {
            throw ProtocolError(.badRequest, describe(error))
        }
    }

    static func describe(_ error: LayoutError) -> String {
        switch error {
        case .unknownCell(let id): "unknown cell id \(id)"
        case .invalidPosition: "position must be finite"
        case .invalidRadius(let radius): "radius must be in [1, 200], not \(JSONText.number(radius))"
        case .selfLink(let id): "cell \(id) cannot link to itself"
        case .duplicateLink(let a, let b): "cells \(a) and \(b) are already linked"
        case .unknownLink(let a, let b): "no link between cells \(a) and \(b)"
        case .invalidLink(let a, let b): "the link between \(a) and \(b) needs a finite distance and strength of at least 0"
        }
    }
}
