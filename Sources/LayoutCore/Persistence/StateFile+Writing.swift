import ForceLayout

/// Writing a state file with the protocol's own JSON writer (Foundation's `JSONEncoder` took
/// 0.35 s of a core for 100k cells, every 0.75 s while such a room moves). Keys are sorted,
/// as the files of earlier versions were.
extension StateFile {
    package static func bytes(of state: SavedState) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256 + state.layout.cells.count * 48)
        writer.raw("{")
        if state.access != .unowned {  // a room from before links, never deleted: no access written
            writer.raw("\"access\":")
            writer.access(state.access)
            writer.raw(",")
        }
        writer.raw("\"format\":")
        writer.string(format)
        writer.raw(",\"layout\":{\"cells\":")
        writer.array(state.layout.cells) { $0.stateCell($1, data: state.catalog[$1.id]) }
        writer.raw(",\"links\":")
        writer.array(state.layout.links) { $0.stateLink($1, attrs: state.catalog[link: $1.source, $1.target]) }
        writer.member("nextID", state.layout.nextID)
        writer.raw(",\"parameters\":{")
        for (offset, spec) in sortedParameters.enumerated() {
            if offset > 0 { writer.raw(UInt8(ascii: ",")) }
            writer.string(spec.name)
            writer.raw(UInt8(ascii: ":"))
            writer.parameterValue(spec.value(in: state.layout.parameters))
        }
        writer.raw("}}")
        if !state.owners.isEmpty {
            writer.raw(",\"owners\":")
            // the frames' runs, written as the frames write them
            FrameEncoder.writeOwners(state.owners, into: &writer)
        }
        writer.member("reservation", state.reservation)
        writer.member("settled", state.settled)
        writer.member("version", version)
        writer.raw("}")
        return writer.bytes
    }

    private static let sortedParameters = Parameters.table.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
}

/// A cell and a link as a state file holds them, keys sorted, each optional field only when set.
extension JSONWriter {
    /// The room's access: links as digests only (64 hexadecimal digits), never a secret.
    fileprivate mutating func access(_ access: RoomAccess) {
        raw("{")
        if let links = access.links {
            key("edit"); string(links.edit.hex)
            member("editGeneration", links.editGeneration)
            raw(",")
        }
        if access.deleted { raw("\"deleted\":true,") }
        key("mode"); string(access.mode.rawValue)
        if let links = access.links {
            member("owner", links.owner.hex)
            member("view", links.view.hex)
            member("viewGeneration", links.viewGeneration)
        }
        raw("}")
    }

    fileprivate mutating func stateCell(_ cell: CellRecord, data: CellData) {
        raw("{")
        if let attrs = data.attrs { key("attrs"); self.attrs(attrs); raw(",") }
        if let color = data.color { key("color"); string(color); raw(",") }
        if let group = data.group { key("group"); string(group); raw(",") }
        key("id")
        integer(cell.id)
        if let cellKey = data.key { raw(",\"key\":"); self.cellKey(cellKey) }
        if let label = data.label { member("label", label) }
        member("pinned", cell.pinned)
        if let radius = cell.radius { member("radius", radius) }
        raw(",\"x\":")
        number(cell.x)
        raw(",\"y\":")
        number(cell.y)
        raw("}")
    }

    fileprivate mutating func stateLink(_ link: Link, attrs: Attrs?) {
        raw("{")
        if let attrs { key("attrs"); self.attrs(attrs); raw(",") }
        if let distance = link.distance {
            raw("\"distance\":")
            number(distance)
            raw(",")
        }
        raw("\"source\":")
        integer(link.source)
        if let strength = link.strength { member("strength", strength) }
        member("target", link.target)
        raw("}")
    }
}
