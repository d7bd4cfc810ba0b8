import ForceLayout

extension LayoutState {
    /// The room becomes `saved` (a moment of its history, `MomentState.snapshot`): its cells
    /// with their ids, data, links, parameters, pins, positions and owners, as one change by
    /// `client`, told in a `restored` event (and a `params` event when the parameters differ
    /// from the room's). Its access stays; ticks and the membership version go on (a client never
    /// takes the new membership for one it saw); ids go on from the higher of the two next ids,
    /// so none is handed out twice. Refused as an `add` of its cells would be when the limits
    /// cannot hold it, changing nothing.
    public mutating func restore(_ saved: SavedState, moment: Int, by client: String) throws(ProtocolError) -> [LayoutEvent] {
        guard !access.deleted else { throw ProtocolError(.forbidden, "the room was deleted by its owner") }
        let count = saved.layout.cells.count
        guard count <= limits.maxCells else {
            throw ProtocolError(.limit, "restoring \(count) cells would pass maxCells (\(limits.maxCells))")
        }
        guard saved.layout.links.count <= limits.maxLinks else {
            throw ProtocolError(.limit, "restoring \(saved.layout.links.count) links would pass maxLinks (\(limits.maxLinks))")
        }
        var layout = saved.layout
        layout.nextID = max(layout.nextID, simulation.nextID)
        let restored = try Self.checked { () throws(LayoutError) in try Simulation(snapshot: layout, seed: UInt64(simulation.tick) &+ 1) }
        // Only the difference is taken or given: giving the room's cells back first and taking
        // them again on a refusal could fail (another room took them meanwhile), and the
        // budget would lose count of them.
        if let budget {
            let more = count - simulation.count
            if more > 0, !budget.take(more) {
                throw ProtocolError(.limit, "restoring \(count) cells would pass maxTotalCells (\(budget.limit)): the rooms hold \(budget.total)")
            }
            if more < 0 { budget.give(-more) }
        }
        restored.resume(tick: simulation.tick, after: simulation.version)
        let before = self.saved(reservation: simulation.nextID, settled: self.settled)
        let now = LayoutEvent.now()
        let parametersBefore = simulation.parameters
        simulation = restored
        catalog = saved.catalog
        ownership = Ownership(runs: saved.owners)
        dragPins = [:]
        // What each client could undo was made on the room before: it goes (their `undoable`
        // says so). The restore itself is undone by bringing back the room as it was before it.
        forgetUndo()
        undo.record(.moment(before, at: now - 1), by: client, at: now, what: "restore of the room as it was", verb: "restored",
                    keys: [])
        dataVersion += 1
        settled = saved.settled
        changes.formUnion([.membership, .positions, .pins, .other])
        let records = self.records
        let links = simulation.links.map { LinkRecord($0, attrs: catalog[link: $0.source, $0.target]) }
        var events = [LayoutEvent(kind: .restored, by: client, tick: simulation.tick,
                                  detail: .restored(moment: moment, ids: simulation.ids, pinned: simulation.pinnedIDs, records: records, links: links), at: now)]
        // Parameters it brought back come as they come after any change: whole, in a `params`
        // event, which is how every client keeps them (a `restored` does not carry them).
        let change = ParameterChange(from: parametersBefore, to: simulation.parameters)
        if !change.isEmpty {
            events.append(LayoutEvent(kind: .params, by: client, tick: simulation.tick,
                                      detail: .params(simulation.parameters, changed: change.entries.map(\.spec.name)), at: now))
        }
        return events
    }
}
