import ForceLayout

/// Writing a state file with the protocol's own JSON writer (Foundation's `JSONEncoder` took
/// 0.35 s of a core for 100k cells, every 0.75 s while such a room moves). Keys are sorted,
/// as the files of earlier versions were.
extension StateFile {
    static func bytes(of state: SavedState) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256 + state.layout.cells.count * 48)
        writer.raw("{\"format\":")
        writer.string(format)
        writer.raw(",\"layout\":{\"cells\":")
        let catalog = state.catalog
        writer.array(state.layout.cells) { writer, cell in
            let data = catalog[cell.id]
            writer.raw("{")
            if let color = data.color { writer.key("color"); writer.string(color); writer.raw(",") }
            if let group = data.group { writer.key("group"); writer.string(group); writer.raw(",") }
            writer.key("id")
            writer.integer(cell.id)
            if let label = data.label { writer.member("label", label) }
            writer.member("pinned", cell.pinned)
            if let radius = cell.radius { writer.member("radius", radius) }
            writer.raw(",\"x\":")
            writer.number(cell.x)
            writer.raw(",\"y\":")
            writer.number(cell.y)
            writer.raw("}")
        }
        writer.raw(",\"links\":")
        writer.array(state.layout.links) { writer, link in
            writer.raw("{\"distance\":")
            writer.number(link.distance)
            writer.member("source", link.source)
            if let strength = link.strength { writer.member("strength", strength) }
            writer.member("target", link.target)
            writer.raw("}")
        }
        writer.member("nextID", state.layout.nextID)
        writer.raw(",\"parameters\":{")
        for (offset, spec) in sortedParameters.enumerated() {
            if offset > 0 { writer.raw(UInt8(ascii: ",")) }
            writer.string(spec.name)
            writer.raw(UInt8(ascii: ":"))
            writer.parameterValue(spec.value(in: state.layout.parameters))
        }
        writer.raw("}}")
        writer.member("reservation", state.reservation)
        writer.member("settled", state.settled)
        writer.member("version", version)
        writer.raw("}")
        return writer.bytes
    }

    private static let sortedParameters = Parameters.table.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
}
