import ForceLayout

/// The messages about cells' data and links: `add` with `cells`, `update`, `link`, `unlink`.
extension MessageDecoder {
    /// The largest link rest length a client may ask for.
    static let distanceLimit = 1e6

    func decodeNewCells(_ value: JSONValue) throws(ProtocolError) -> [NewCell] {
        try objects(value, named: "add.cells") { (fields: inout Fields) throws(ProtocolError) in
            var cell = NewCell()
            cell.data.label = try fields.text("label", limit: CellData.labelLimit)
            cell.data.color = try fields.color("color")
            cell.data.group = try fields.text("group", limit: CellData.groupLimit)
            cell.seed.radius = try fields.radius("radius")
            cell.data.key = try fields.cellKey("key")
            cell.data.attrs = try fields.attrs("attrs", maxBytes: limits.maxAttrBytes)
            (cell.seed.x, cell.seed.y) = try fields.optionalPoint()
            return cell
        }
    }

    func decodeUpdate(_ fields: inout Fields) throws(ProtocolError) -> LayoutCommand {
        guard let value = fields.take("cells") else { throw ProtocolError(.badRequest, "update needs cells") }
        return .update(try objects(value, named: "update.cells") { (fields: inout Fields) throws(ProtocolError) in
            var edit = CellEdit(id: try fields.cellID("id"))
            edit.label = try fields.edit("label") { (fields: inout Fields) throws(ProtocolError) in
                try fields.text("label", limit: CellData.labelLimit)
            }
            edit.color = try fields.edit("color") { (fields: inout Fields) throws(ProtocolError) in try fields.color("color") }
            edit.group = try fields.edit("group") { (fields: inout Fields) throws(ProtocolError) in
                try fields.text("group", limit: CellData.groupLimit)
            }
            edit.radius = try fields.edit("radius") { (fields: inout Fields) throws(ProtocolError) in try fields.radius("radius") }
            edit.key = try fields.edit("key") { (fields: inout Fields) throws(ProtocolError) in try fields.cellKey("key") }
            // `{}` is no attributes: as `null`, it resets them.
            let attrs = try fields.edit("attrs") { (fields: inout Fields) throws(ProtocolError) in
                try fields.attrs("attrs", maxBytes: limits.maxAttrBytes) ?? Attrs(bytes: [])
            }
            edit.attrs = attrs == .set(Attrs(bytes: [])) ? .reset : attrs
            (edit.x, edit.y) = try fields.optionalPoint()
            return edit
        })
    }

    func decodeLink(_ fields: inout Fields) throws(ProtocolError) -> LayoutCommand {
        guard let value = fields.take("links") else { throw ProtocolError(.badRequest, "link needs links") }
        return .link(try objects(value, named: "link.links") { (fields: inout Fields) throws(ProtocolError) in
            let source = try fields.cellID("source"), target = try fields.cellID("target")
            // None given: the link follows the room's edgeLength.
            let distance = try fields.number("distance", in: 0...Self.distanceLimit)
            let link = Link(source: source, target: target, distance: distance, strength: try fields.number("strength", in: 0...1))
            return LinkRecord(link, attrs: try fields.attrs("attrs", maxBytes: limits.maxAttrBytes))
        })
    }

    func decodeUnlink(_ fields: inout Fields) throws(ProtocolError) -> LayoutCommand {
        guard let value = fields.take("links") else { throw ProtocolError(.badRequest, "unlink needs links") }
        return .unlink(try objects(value, named: "unlink.links") { (fields: inout Fields) throws(ProtocolError) in
            LinkEnds(source: try fields.cellID("source"), target: try fields.cellID("target"))
        })
    }

    /// A non-empty array of at most `maxAddPerMessage` objects, each read by `read` (which
    /// takes the fields it knows; any left over is refused).
    private func objects<T>(_ value: JSONValue, named name: String,
                            _ read: (inout Fields) throws(ProtocolError) -> T) throws(ProtocolError) -> [T] {
        guard case .array(let elements) = value else {
            throw ProtocolError(.badRequest, "\(name) must be an array of objects, not \(value.typeName)")
        }
        guard !elements.isEmpty else { throw ProtocolError(.badRequest, "\(name) is empty") }
        guard elements.count <= limits.maxAddPerMessage else {
            throw ProtocolError(.limit, "\(name) holds \(elements.count) items, over maxAddPerMessage (\(limits.maxAddPerMessage))")
        }
        var items: [T] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .object = element else {
                throw ProtocolError(.badRequest, "\(name)[\(index)] must be an object, not \(element.typeName)")
            }
            var fields = Fields(value: element, context: "\(name)[\(index)]")
            items.append(try read(&fields))
            try fields.rejectLeftovers()
        }
        return items
    }
}

extension Fields {
    /// A label or group: a string of at most `limit` code points, no control characters.
    mutating func text(_ key: String, limit: Int) throws(ProtocolError) -> String? {
        guard let value = take(key) else { return nil }
        guard case .string(let text) = value else {
            throw ProtocolError(.badRequest, "\(context).\(key) must be a string, not \(value.typeName)")
        }
        if let problem = CellData.problem(text: text, limit: limit) {
            throw ProtocolError(.badRequest, "\(context).\(key) must have \(problem)")
        }
        return text
    }

    /// A cell's key: a string of at most `CellKey.byteLimit` bytes or a finite number.
    mutating func cellKey(_ key: String) throws(ProtocolError) -> CellKey? {
        guard let value = take(key) else { return nil }
        switch CellKey.make(value) {
        case .success(let cellKey): return cellKey
        case .failure(let problem): throw ProtocolError(.badRequest, "\(context).\(key) must be \(problem.why)")
        }
    }

    /// Attributes: an object within `Attrs`' bounds and `maxBytes`; nil when absent or empty.
    /// Too many bytes is a `limit` error (`maxAttrBytes`), anything else `bad_request`.
    mutating func attrs(_ key: String, maxBytes: Int) throws(ProtocolError) -> Attrs? {
        guard let value = take(key) else { return nil }
        switch Attrs.make(value, maxBytes: maxBytes) {
        case .success(let attrs): return attrs
        case .failure(let problem): throw ProtocolError(problem.tooBig ? .limit : .badRequest, "\(context).\(key) \(problem.why)")
        }
    }

    mutating func color(_ key: String) throws(ProtocolError) -> String? {
        guard let value = take(key) else { return nil }
        guard case .string(let text) = value, let color = CellData.color(text) else {
            throw ProtocolError(.badRequest, "\(context).\(key) must be a colour \"#rrggbb\", not \(describe(value))")
        }
        return color
    }

    mutating func radius(_ key: String) throws(ProtocolError) -> Double? {
        let range = Simulation.radiusRange
        return try number(key, in: range)
    }

    /// A finite number in `range`, or nil when absent.
    mutating func number(_ key: String, in range: ClosedRange<Double>) throws(ProtocolError) -> Double? {
        guard let value = take(key) else { return nil }
        guard case .number(let number) = value, range.contains(number) else {
            let bounds = "[\(JSONText.number(range.lowerBound)), \(JSONText.number(range.upperBound))]"
            throw ProtocolError(.badRequest, "\(context).\(key) must be a number in \(bounds), not \(describe(value))")
        }
        return number
    }

    /// `x` and `y` together, or neither.
    mutating func optionalPoint() throws(ProtocolError) -> (Double?, Double?) {
        switch (take("x"), take("y")) {
        case (nil, nil): return (nil, nil)
        case (let x?, let y?):
            var point = Fields(value: .object([("x", x), ("y", y)]), context: context)
            return (try point.coordinate("x"), try point.coordinate("y"))
        default: throw ProtocolError(.badRequest, "\(context) needs both x and y, or neither")
        }
    }

    /// An `update` field: absent (keep), `null` (back to the default) or a value `read` accepts.
    mutating func edit<Value>(_ key: String, _ read: (inout Fields) throws(ProtocolError) -> Value?)
        throws(ProtocolError) -> FieldEdit<Value> {
        guard let value = take(key) else { return .keep }
        if case .null = value { return .reset }
        var single = Fields(value: .object([(key, value)]), context: context)
        guard let read = try read(&single) else { return .keep }
        return .set(read)
    }
}
