import ForceLayout

/// The commands about cells' data and links: `add` with cells, `update`, `link`, `unlink`.
/// Each checks everything first, then changes the layout: all or nothing.
extension LayoutState {
    /// A cell's data as the wire carries it.
    public func record(of id: CellID) -> CellRecordData {
        CellRecordData(id: id, data: catalog[id], radius: simulation.radius(of: id))
    }

    /// Every cell with data or a radius of its own, ascending id.
    public var records: [CellRecordData] {
        var ids = Set(catalog.data.keys)
        if simulation.customRadii > 0 {
            for id in simulation.ids where simulation.radius(of: id) != nil { ids.insert(id) }
        }
        return ids.sorted().map { record(of: $0) }
    }

    /// `add` with cells, `update`, `link`, `unlink` (`change` hands them here).
    mutating func changeData(_ command: LayoutCommand, by client: String,
                             reserveIDs: IDReserver) throws(ProtocolError) -> (LayoutEvent, Changes)? {
        switch command {
        case .addCells(let cells, let spawn): try addCells(cells, spawn: spawn, by: client, reserveIDs: reserveIDs)
        case .update(let edits): try update(edits, by: client)
        case .link(let links): try link(links, by: client)
        case .unlink(let ends): try unlink(ends, by: client)
        default: nil
        }
    }

    mutating func addCells(_ cells: [NewCell], spawn: Spawn, by client: String,
                           reserveIDs: IDReserver) throws(ProtocolError) -> (LayoutEvent, Changes)? {
        try admit(cells.count)
        do throws(ProtocolError) {
            try reserveIDs(cells.count, self)
        } catch {
            budget?.give(cells.count)
            throw error
        }
        let ids: [CellID]
        do {
            ids = try simulation.add(cells.map(\.seed), spawn: spawn)
        } catch {
            budget?.give(cells.count)
            throw ProtocolError(.badRequest, Self.describe(error))
        }
        ownership.record(ids, by: client)
        var data: [CellRecordData] = []
        for (id, cell) in zip(ids, cells) where !cell.data.isEmpty || cell.seed.radius != nil {
            catalog[id] = cell.data
            data.append(record(of: id))
        }
        if !data.isEmpty { dataVersion += 1 }
        return event(.added, by: client, .added(ids, data: data), .membership)
    }

    /// Only what changes is an event: a cell whose fields, radius and place stay as they were
    /// is left out of `updated`, and an `update` that changes nothing publishes nothing (so
    /// repeating one cannot fill the room's replay or its joiners' hellos).
    mutating func update(_ edits: [CellEdit], by client: String) throws(ProtocolError) -> (LayoutEvent, Changes)? {
        for edit in edits {
            guard simulation.contains(edit.id) else { throw ProtocolError(.badRequest, Self.describe(.unknownCell(edit.id))) }
        }
        var order: [CellID] = [], seen = Set<CellID>()
        var places: [CellID: CellRecordData.Place] = [:]
        var changed: Changes = []
        for edit in edits {
            var touched = false
            let before = catalog[edit.id]
            var data = before
            data.label = edit.label.applied(to: data.label)
            data.color = edit.color.applied(to: data.color)
            data.group = edit.group.applied(to: data.group)
            data.key = edit.key.applied(to: data.key)
            data.attrs = edit.attrs.applied(to: data.attrs)
            if data != before {
                catalog[edit.id] = data
                changed.insert(.data)
                touched = true
            }
            let radius = edit.radius.applied(to: simulation.radius(of: edit.id))
            if radius != simulation.radius(of: edit.id) {
                try Self.checked { () throws(LayoutError) in try simulation.setRadius(radius, of: edit.id) }
                changed.formUnion([.data, .other])
                touched = true
            }
            if let x = edit.x, let y = edit.y {
                try Self.checked { () throws(LayoutError) in try simulation.move(edit.id, x: x, y: y) }
                places[edit.id] = .init(x: x, y: y)
                changed.insert(.positions)
                touched = true
            }
            if touched, seen.insert(edit.id).inserted { order.append(edit.id) }
        }
        guard !order.isEmpty else { return nil }
        if changed.contains(.data) { dataVersion += 1 }
        // A moved cell's place goes with it: a pinned cell's pin moved (the history's moments
        // and a recording's playback place it by the event).
        let records = order.map { id in
            var record = record(of: id)
            record.place = places[id]
            return record
        }
        return event(.updated, by: client, .updated(records), changed)
    }

    /// Links with attributes keep them in the catalog, beside the engine's links.
    mutating func link(_ links: [LinkRecord], by client: String) throws(ProtocolError) -> (LayoutEvent, Changes)? {
        let count = simulation.links.count
        guard count + links.count <= limits.maxLinks else {
            throw ProtocolError(.limit, "linking \(links.count) would pass maxLinks (\(limits.maxLinks)): the layout has \(count)")
        }
        try Self.checked { () throws(LayoutError) in try simulation.link(links.map(\.link)) }
        for record in links where record.attrs != nil {
            catalog[link: record.link.source, record.link.target] = record.attrs
        }
        dataVersion += 1
        return event(.linked, by: client, .linked(links), [.data, .other])
    }

    mutating func unlink(_ ends: [LinkEnds], by client: String) throws(ProtocolError) -> (LayoutEvent, Changes)? {
        try Self.checked { () throws(LayoutError) in try simulation.unlink(ends.map { ($0.source, $0.target) }) }
        for end in ends { catalog[link: end.source, end.target] = nil }
        dataVersion += 1
        return event(.unlinked, by: client, .unlinked(ends), [.data, .other])
    }
}
