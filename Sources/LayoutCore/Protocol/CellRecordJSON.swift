import ForceLayout

/// A cell's data and a link as every message and export writes them: only the fields that
/// are set (`{"id":3,"label":"Valjean","group":"1"}`; a link's `strength` only when given).
extension JSONWriter {
    mutating func cellRecord(_ record: CellRecordData) {
        raw("{\"id\":")
        integer(record.id)
        cellFields(record.data, radius: record.radius)
        if let place = record.place {
            member("x", place.x)
            member("y", place.y)
        }
        raw("}")
    }

    /// `,"label":…` and the rest, each only when set.
    mutating func cellFields(_ data: CellData, radius: Double?) {
        if let label = data.label { member("label", label) }
        if let radius { member("radius", radius) }
        if let color = data.color { member("color", color) }
        if let group = data.group { member("group", group) }
        if let key = data.key { raw(",\"key\":"); cellKey(key) }
        if let attrs = data.attrs { raw(",\"attrs\":"); self.attrs(attrs) }
    }

    /// A link and its attributes, as `link` and `linked` carry them.
    mutating func linkRecord(_ record: LinkRecord) {
        link(record.link, closing: false)
        if let attrs = record.attrs { raw(",\"attrs\":"); self.attrs(attrs) }
        raw("}")
    }

    mutating func link(_ link: Link, closing: Bool = true) {
        raw("{\"source\":")
        integer(link.source)
        member("target", link.target)
        if let distance = link.distance { member("distance", distance) }
        if let strength = link.strength { member("strength", strength) }
        if closing { raw("}") }
    }

    /// `{"source":…,"target":…}`: the ends of a link, as `unlink` names them.
    mutating func linkEnds(_ ends: LinkEnds) {
        raw("{\"source\":")
        integer(ends.source)
        member("target", ends.target)
        raw("}")
    }
}
