import ForceLayout

/// What each change's undo needs, taken at `apply`: the layout before it (`UndoBefore`, read
/// before the change) and what it did (its event, after). A drag's moves (pins with `drag`,
/// and the unpin that drops the cell) are not steps: the cell is let go as it was held.
extension LayoutState {
    /// The part of the layout a change alters, as it was before it.
    enum UndoBefore {
        case add
        /// The cells a remove or clear takes, and their links.
        case removed([RemovedCell], links: [LinkRecord])
        case params(Parameters)
        case link
        /// The links an unlink takes, with their distance, strength and attrs.
        case unlink([LinkRecord])
        case update([CellBefore])
        case pin(id: CellID, pinned: Bool, x: Double, y: Double)
    }

    /// Consecutive pins of one cell, or changes of the same parameters, by one client within
    /// this many ms of each other are one step (a pinned cell's drag, a slider's moves).
    static let mergeWindow = 2000

    /// nil: the command is not recorded (undo is off, it is not a change a client undoes, or
    /// it will be refused).
    func undoBefore(_ command: LayoutCommand, by client: String) -> UndoBefore? {
        guard undo.isOn else { return nil }
        switch command {
        case .add, .addCells: return .add
        case .remove(let ids):
            let unique = Array(Set(ids)).sorted()
            guard unique.allSatisfy(simulation.contains) else { return nil }
            return removed(unique)
        case .removeNewest(let count): return removed(Array(simulation.ids.suffix(max(0, count))))
        case .clear: return removed(simulation.ids)
        case .params: return .params(simulation.parameters)
        case .link: return .link
        case .unlink(let ends):
            let wanted = Set(ends.map { UndoKey.pair($0.source, $0.target) })
            let links = simulation.links.filter { wanted.contains(.pair($0.source, $0.target)) }
            return .unlink(links.map { LinkRecord($0, attrs: catalog[link: $0.source, $0.target]) })
        case .update(let edits):
            var seen = Set<CellID>()
            var cells: [CellBefore] = []
            // Its place goes back only if some edit of it moved it (one pass: an update may
            // name a thousand cells).
            let moved = Set(edits.lazy.filter { $0.x != nil }.map(\.id))
            for edit in edits where seen.insert(edit.id).inserted {
                guard let position = simulation.position(of: edit.id) else { return nil }
                cells.append(CellBefore(id: edit.id, data: catalog[edit.id], radius: simulation.radius(of: edit.id),
                                        position: moved.contains(edit.id) ? position : nil))
            }
            return .update(cells)
        case .pin(let id, _, _, let drag):
            guard !drag, let position = simulation.position(of: id) else { return nil }
            // A cell held by a drag was free before it (a pin without `drag` keeps it pinned).
            return .pin(id: id, pinned: simulation.isPinned(id) && dragPins[id] == nil, x: position.x, y: position.y)
        case .unpin(let id):
            guard simulation.isPinned(id), dragPins[id] != client, let position = simulation.position(of: id) else { return nil }
            return .pin(id: id, pinned: true, x: position.x, y: position.y)
        case .access, .point, .undo, .restore: return nil
        }
    }

    /// `ids` (ascending) as they are now, with the links that touch them.
    private func removed(_ ids: [CellID]) -> UndoBefore? {
        guard !ids.isEmpty else { return nil }
        let owners = ownership.owners(of: ids)
        var cells: [RemovedCell] = []
        cells.reserveCapacity(ids.count)
        for (id, owner) in zip(ids, owners) {
            guard let position = simulation.position(of: id) else { return nil }
            // A cell held by a drag comes back free: its drag ended with it.
            let pinned = simulation.isPinned(id) && dragPins[id] == nil
            cells.append(RemovedCell(record: CellRecord(id: id, x: position.x, y: position.y, pinned: pinned,
                                                        radius: simulation.radius(of: id)),
                                     data: catalog[id], owner: owner))
        }
        let gone = ids.count == simulation.count ? nil : Set(ids)
        let links = simulation.links.filter { gone == nil || gone!.contains($0.source) || gone!.contains($0.target) }
        return .removed(cells, links: links.map { LinkRecord($0, attrs: catalog[link: $0.source, $0.target]) })
    }

    /// Records the step `event` (what `before`'s change did) on `client`'s list, or merges it
    /// into the last one.
    mutating func recordUndo(_ before: UndoBefore, of event: LayoutEvent, by client: String) {
        switch (before, event.detail) {
        case (.add, .cells(let ids)), (.add, .added(let ids, _)):
            undo.record(.remove(ids), by: client, at: event.at, what: "add \(UndoStep.cells(ids))", verb: "added",
                        keys: ids.map(UndoKey.cell))
        case (.removed(let cells, let links), .cells(let ids)):
            let verb = event.kind == .cleared ? "cleared" : "removed"
            let keys = ids.map(UndoKey.cell) + links.map { UndoKey.pair($0.link.source, $0.link.target) }
            undo.record(.restore(cells, links: links), by: client, at: event.at,
                        what: "\(event.kind == .cleared ? "clear" : "remove") \(UndoStep.cells(ids))", verb: verb, keys: keys)
        case (.params(let parameters), .params(_, let changed)):
            recordParams(before: parameters, changed: changed, at: event.at, by: client)
        case (.link, .linked(let links)):
            let ends = links.map { LinkEnds(source: $0.link.source, target: $0.link.target) }
            undo.record(.unlink(ends), by: client, at: event.at, what: "link \(UndoStep.links(ends))", verb: "linked",
                        keys: Self.keys(of: ends))
        case (.unlink(let records), .unlinked(let ends)):
            undo.record(.link(records), by: client, at: event.at, what: "unlink \(UndoStep.links(ends))", verb: "unlinked",
                        keys: Self.keys(of: ends))
        case (.update(let cells), .updated(let records)):
            let changed = Set(records.map(\.id))
            let ids = records.map(\.id)
            undo.record(.update(cells.filter { changed.contains($0.id) }), by: client, at: event.at,
                        what: "update \(UndoStep.cells(ids))", verb: "updated", keys: ids.map(UndoKey.cell))
        case (.pin(let id, let pinned, let x, let y), .pinned), (.pin(let id, let pinned, let x, let y), .unpinned):
            let verb = event.kind == .pinned ? "pinned" : "unpinned"
            if let top = undo.top(of: client), case .pin(id, _, _, _) = top.inverse, top.verb == verb, verb == "pinned",
               event.at - top.at < Self.mergeWindow, undo.touch(of: .cell(id))?.stamp == top.stamp {
                undo.extendTop(of: client, at: event.at)
                return
            }
            undo.record(.pin(id: id, pinned: pinned, x: x, y: y), by: client, at: event.at,
                        what: "\(verb == "pinned" ? "pin" : "unpin") cell \(id)", verb: verb, keys: [.cell(id)])
        default:
            break
        }
    }

    /// A link's ends and its cells (a link builds on both).
    private static func keys(of ends: [LinkEnds]) -> [UndoKey] {
        var cells = Set<CellID>()
        var keys = ends.map { UndoKey.pair($0.source, $0.target) }
        for end in ends {
            if cells.insert(end.source).inserted { keys.append(UndoKey.cell(end.source)) }
            if cells.insert(end.target).inserted { keys.append(UndoKey.cell(end.target)) }
        }
        return keys
    }

    /// The previous values of the parameters changed; a change of the same ones soon after
    /// the client's last (a slider's moves) extends that step, and a step that comes back to
    /// where it started goes.
    private mutating func recordParams(before parameters: Parameters, changed: [String], at: Int, by client: String) {
        let keys = changed.map(UndoKey.param)
        if let top = undo.top(of: client), case .params(let previous) = top.inverse,
           Set(previous.entries.map(\.spec.name)) == Set(changed), at - top.at < Self.mergeWindow,
           keys.allSatisfy({ undo.touch(of: $0)?.stamp == top.stamp }) {
            undo.extendTop(of: client, at: at)
            if previous.applied(to: simulation.parameters).changed.isEmpty { undo.pop(client, undone: true) }
            return
        }
        var previous = ParameterChange()
        for spec in Parameters.table where changed.contains(spec.name) {
            previous[spec] = spec.value(in: parameters)
        }
        let what = "change \(changed.joined(separator: ", "))"
        undo.record(.params(previous), by: client, at: at, what: what, verb: "changed", keys: keys)
    }
}
