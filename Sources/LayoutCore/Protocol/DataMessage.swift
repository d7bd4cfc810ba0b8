import ForceLayout

/// The `data` message a late joiner gets after `hello`: every cell's data and every link, in
/// columns (one array per field, `null` where a cell has no value; a column no cell uses is
/// left out), so 100k labelled cells cost their labels and little else. `key` and `attrs`
/// (cells and links) are columns like the others.
package enum DataMessage {
    package static func encode(records: [CellRecordData], links: [Link], linkAttrs: LinkAttributes = LinkAttributes()) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64 + records.count * 24 + links.count * 24)
        writer.raw("{\"type\":\"data\",")
        writeColumns(records: records, links: links, linkAttrs: linkAttrs, into: &writer)
        writer.raw("}")
        return writer.bytes
    }

    /// `"cells":{…},"links":{…}`: the columns, as the `data` message and a history `moment`
    /// carry them.
    package static func writeColumns(records: [CellRecordData], links: [Link], linkAttrs: LinkAttributes,
                                     into writer: inout JSONWriter) {
        writer.raw("\"cells\":{\"id\":")
        writer.integers(records.map(\.id))
        column("label", records.map(\.data.label), into: &writer) { $0.string($1) }
        column("radius", records.map(\.radius), into: &writer) { $0.number($1) }
        column("color", records.map(\.data.color), into: &writer) { $0.string($1) }
        column("group", records.map(\.data.group), into: &writer) { $0.string($1) }
        column("key", records.map(\.data.key), into: &writer) { $0.cellKey($1) }
        column("attrs", records.map(\.data.attrs), into: &writer) { $0.attrs($1) }
        writer.raw("},\"links\":{\"source\":")
        writer.integers(links.map(\.source))
        writer.raw(",\"target\":")
        writer.integers(links.map(\.target))
        column("distance", links.map(\.distance), into: &writer) { $0.number($1) }
        column("strength", links.map(\.strength), into: &writer) { $0.number($1) }
        if !linkAttrs.isEmpty {
            column("attrs", links.map { linkAttrs[$0.source, $0.target] }, into: &writer) { $0.attrs($1) }
        }
        writer.raw("}")
    }

    /// `,"name":[…]` with `null` for nil, or nothing when every value is nil.
    private static func column<T>(_ name: StaticString, _ values: [T?], into writer: inout JSONWriter,
                                  _ write: (inout JSONWriter, T) -> Void) {
        guard values.contains(where: { $0 != nil }) else { return }
        writer.raw(",")
        writer.key(name)
        writer.array(values) { writer, value in
            if let value { write(&writer, value) } else { writer.raw("null") }
        }
    }
}
