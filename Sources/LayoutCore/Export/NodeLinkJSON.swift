import ForceLayout

/// The node-link JSON that d3's examples and networkx's `node_link_data` write and read:
/// `{"directed":false,"multigraph":false,"graph":{…},"nodes":[{"id":…,…}],"links":[{"source":…,"target":…}]}`,
/// each node with `x`, `y` (world units, y down as on the page) and every field it has.
/// A node's `id` is its key (`LayoutExport.nodeIDs`), and the links' ends name nodes by it;
/// a cell's or a link's `attrs` are merged in as members of their own, except those with the
/// name of a member written already (`id`, `label`, `x`, … for nodes; `source`, `target`,
/// `distance`, … for links): the layout's own fields win.
enum NodeLinkJSON {
    static func encode(_ export: LayoutExport) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128 + export.cells.count * 64 + export.links.count * 48)
        writer.raw("{\"directed\":false,\"multigraph\":false,\"graph\":{\"room\":")
        writer.string(export.room)
        writer.member("tick", export.tick)
        writer.raw("},\"nodes\":")
        let ids = export.nodeIDs()
        writer.array(Array(zip(export.cells, ids))) { writer, item in
            node(item.0, id: item.1, into: &writer)
        }
        let byCell = export.nodeIDsByCell()
        writer.raw(",\"links\":")
        writer.array(export.links) { writer, link in
            Self.link(link, ends: byCell, attrs: export.linkAttrs[link.source, link.target], into: &writer)
        }
        writer.raw("}")
        return writer.bytes
    }

    /// A node: its key as `id`, its fields and position, then its `attrs` not named so far.
    private static func node(_ cell: LayoutExport.Cell, id: CellKey, into writer: inout JSONWriter) {
        writer.raw("{\"id\":")
        writer.cellKey(id)
        writer.exportFields(cell.data, radius: cell.radius)
        writer.member("x", cell.x)
        writer.member("y", cell.y)
        if cell.pinned { writer.member("pinned", true) }
        var written: Set<String> = ["id", "x", "y"]
        if cell.data.label != nil { written.insert("label") }
        if cell.radius != nil { written.insert("radius") }
        if cell.data.color != nil { written.insert("color") }
        if cell.data.group != nil { written.insert("group") }
        if cell.pinned { written.insert("pinned") }
        writer.merged(cell.data.attrs, except: written)
        writer.raw("}")
    }

    /// A link between the node ids of its ends (`ends`: by cell), then its `attrs` not named
    /// so far.
    private static func link(_ link: Link, ends: [CellID: CellKey], attrs: Attrs?, into writer: inout JSONWriter) {
        writer.raw("{\"source\":")
        writer.cellKey(ends[link.source] ?? .number(Double(link.source)))
        writer.raw(",\"target\":")
        writer.cellKey(ends[link.target] ?? .number(Double(link.target)))
        var written: Set<String> = ["source", "target"]
        if let distance = link.distance {
            writer.member("distance", distance)
            written.insert("distance")
        }
        if let strength = link.strength {
            writer.member("strength", strength)
            written.insert("strength")
        }
        writer.merged(attrs, except: written)
        writer.raw("}")
    }
}

extension JSONWriter {
    /// `,"label":…` and the rest an export writes of a cell, each only when set (not its key
    /// or attrs: the export places those itself).
    mutating func exportFields(_ data: CellData, radius: Double?) {
        var drawn = data
        drawn.key = nil
        drawn.attrs = nil
        cellFields(drawn, radius: radius)
    }

    /// `,"name":value` for each member of `attrs` not named in `written`.
    mutating func merged(_ attrs: Attrs?, except written: Set<String>) {
        guard let attrs else { return }
        for member in attrs.members where !written.contains(member.key) {
            raw(UInt8(ascii: ","))
            string(member.key)
            raw(UInt8(ascii: ":"))
            value(member.value)
        }
    }
}
