/// The node-link JSON that d3's examples and networkx's `node_link_data` write and read:
/// `{"directed":false,"multigraph":false,"graph":{…},"nodes":[{"id":…,…}],"links":[{"source":…,"target":…}]}`,
/// each node with `x`, `y` (world units, y down as on the page) and every field it has.
enum NodeLinkJSON {
    static func encode(_ export: LayoutExport) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128 + export.cells.count * 64 + export.links.count * 48)
        writer.raw("{\"directed\":false,\"multigraph\":false,\"graph\":{\"room\":")
        writer.string(export.room)
        writer.member("tick", export.tick)
        writer.raw("},\"nodes\":")
        writer.array(export.cells) { writer, cell in
            writer.raw("{\"id\":")
            writer.integer(cell.id)
            writer.cellFields(cell.data, radius: cell.radius)
            writer.member("x", cell.x)
            writer.member("y", cell.y)
            if cell.pinned { writer.member("pinned", true) }
            writer.raw("}")
        }
        writer.raw(",\"links\":")
        writer.array(export.links) { $0.link($1) }
        writer.raw("}")
        return writer.bytes
    }
}
