import ForceLayout

/// Turns one client text message into a validated `ClientRequest`, or the `ProtocolError`
/// to send back. Validation is complete before anything is returned: all or nothing.
public struct MessageDecoder: Sendable {
    public let limits: Limits

    public init(limits: Limits) { self.limits = limits }

    public func decode(_ bytes: [UInt8]) -> Result<ClientRequest, ProtocolError> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return .failure(ProtocolError(.badJSON, "not valid JSON: \(error)"))
        }
        guard case .object = value else {
            return .failure(ProtocolError(.badJSON, "a message must be a JSON object, not \(value.typeName)"))
        }
        var fields = Fields(value: value)
        let ref: String?
        switch fields.take("ref") {
        case nil: ref = nil
        // Code points, not Characters: one Character can be kilobytes of combining marks.
        case .string(let text)? where text.unicodeScalars.count <= 64: ref = text
        case .string?: return .failure(ProtocolError(.badRequest, "ref must be at most 64 characters (code points)"))
        case let other?: return .failure(ProtocolError(.badRequest, "ref must be a string, not \(other.typeName)"))
        }
        do throws(ProtocolError) {
            let message = try decodeMessage(&fields)
            try fields.rejectLeftovers()
            return .success(ClientRequest(message: message, ref: ref))
        } catch {
            var error = error
            error.ref = ref
            return .failure(error)
        }
    }

    private func decodeMessage(_ fields: inout Fields) throws(ProtocolError) -> ClientMessage {
        guard let typeValue = fields.take("type") else {
            throw ProtocolError(.unknownType, "the message has no \"type\"")
        }
        guard case .string(let type) = typeValue else {
            throw ProtocolError(.unknownType, "type must be a string, not \(typeValue.typeName)")
        }
        fields.context = type
        switch type {
        case "add": return .layout(try decodeAdd(&fields))
        case "remove": return .layout(try decodeRemove(&fields))
        case "clear": return .layout(.clear)
        case "params": return .layout(.params(try decodeParams(&fields)))
        case "pin":
            let id = try fields.cellID("id")
            let x = try fields.coordinate("x"), y = try fields.coordinate("y")
            return .layout(.pin(id: id, x: x, y: y, drag: try fields.boolean("drag") ?? false))
        case "unpin": return .layout(.unpin(id: try fields.cellID("id")))
        case "point": return .layout(try decodePoint(&fields))
        case "update": return .layout(try decodeUpdate(&fields))
        case "link": return .layout(try decodeLink(&fields))
        case "unlink": return .layout(try decodeUnlink(&fields))
        case "subscribe": return .subscribe(try fields.kinds("kinds") ?? .all)
        case "replay":
            guard let count = try fields.integer("count", in: 1...limits.replayBuffer) else {
                throw ProtocolError(.badRequest, "replay needs count")
            }
            return .replay(count: count, kinds: try fields.kinds("kinds") ?? .all)
        case "access":
            guard case .string(let name)? = fields.take("access"), let mode = AccessMode(rawValue: name) else {
                throw ProtocolError(.badRequest, "access needs access: one of \(AccessMode.namesText)")
            }
            return .setAccess(mode)
        case "rotate": return .rotate(try decodeRotate(&fields))
        case "delete": return .deleteRoom
        case "history": return try decodeHistory(&fields)
        case "moment": return try decodeMoment(&fields)
        case "restore": return .layout(.restore(at: try moment("at", in: &fields)))
        case "undo": return .layout(.undo)
        default:
            let known = "add, remove, clear, params, pin, unpin, update, link, unlink, subscribe, replay, access, rotate, delete, point, history, moment, restore, undo"
            throw ProtocolError(.unknownType, "unknown type \(Excerpt.quoted(type, limit: 64)) (expected one of \(known))")
        }
    }

    private func decodeAdd(_ fields: inout Fields) throws(ProtocolError) -> LayoutCommand {
        var count = 1
        let cellsValue = fields.take("cells")
        let requestedCount = try fields.integer("count", in: 1...Int.max)
        if cellsValue != nil, requestedCount != nil {
            throw ProtocolError(.badRequest, "add takes cells or count, not both")
        }
        let cells = try cellsValue.map { value throws(ProtocolError) in try decodeNewCells(value) }
        if let requested = requestedCount {
            guard requested <= limits.maxAddPerMessage else {
                throw ProtocolError(.limit, "add count \(requested) is over maxAddPerMessage (\(limits.maxAddPerMessage))")
            }
            count = requested
        }
        let spawn: Spawn
        let spawnValue = fields.take("spawn")
        switch spawnValue {
        case nil, .string("random")?: spawn = .random
        case .string("center")?: spawn = .center
        case .string("border")?: spawn = .border
        case .object?:
            var point = Fields(value: spawnValue!, context: "add.spawn")
            spawn = .point(x: try point.coordinate("x"), y: try point.coordinate("y"))
            try point.rejectLeftovers()
        case let other?:
            throw ProtocolError(.badRequest, "add.spawn must be \"random\", \"center\", \"border\" or {\"x\":…,\"y\":…}, not \(describe(other))")
        }
        if let cells { return .addCells(cells, spawn: spawn) }
        return .add(count: count, spawn: spawn)
    }

    /// `id`: a cell id, or null to stop pointing (required: a `point` without one is more
    /// likely a mistake than a stop); `name`: the person's display name (`Pointer.name`),
    /// null or absent for none.
    private func decodePoint(_ fields: inout Fields) throws(ProtocolError) -> LayoutCommand {
        let id: CellID?
        switch fields.take("id") {
        case nil: throw ProtocolError(.badRequest, "point needs id: a cell id, or null to stop pointing")
        case .null?: id = nil
        case let value?:
            guard let cell = Fields.positiveInteger(value) else {
                throw ProtocolError(.badRequest, "point.id must be a positive integer cell id or null, not \(describe(value))")
            }
            id = cell
        }
        switch fields.take("name") {
        case nil, .null?: return .point(id: id, name: nil)
        case .string(let text)?:
            switch Pointer.name(text) {
            case .success(let name): return .point(id: id, name: name)
            case .failure(let problem): throw ProtocolError(.badRequest, "point.name must be \(problem.why)")
            }
        case let other?:
            throw ProtocolError(.badRequest, "point.name must be a string, not \(other.typeName)")
        }
    }

    /// `links`: the links to rotate, by kind (default: edit and view).
    private func decodeRotate(_ fields: inout Fields) throws(ProtocolError) -> Set<LinkKind> {
        guard let value = fields.take("links") else { return [.edit, .view] }
        let names = LinkKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard case .array(let elements) = value, !elements.isEmpty, elements.count <= LinkKind.allCases.count else {
            throw ProtocolError(.badRequest, "rotate.links must be a non-empty array of \(names)")
        }
        var kinds: Set<LinkKind> = []
        for element in elements {
            guard case .string(let name) = element, let kind = LinkKind(rawValue: name) else {
                throw ProtocolError(.badRequest, "rotate.links must hold \(names), found \(describe(element))")
            }
            kinds.insert(kind)
        }
        return kinds
    }

    private func decodeRemove(_ fields: inout Fields) throws(ProtocolError) -> LayoutCommand {
        let idsValue = fields.take("ids")
        let count = try fields.integer("count", in: 1...Int.max)
        switch (idsValue, count) {
        case (nil, nil): throw ProtocolError(.badRequest, "remove needs ids or count")
        case (_?, _?): throw ProtocolError(.badRequest, "remove takes ids or count, not both")
        case (nil, let count?): return .removeNewest(count: count)
        case (let value?, nil):
            guard case .array(let elements) = value else {
                throw ProtocolError(.badRequest, "remove.ids must be an array of cell ids, not \(value.typeName)")
            }
            guard !elements.isEmpty else { throw ProtocolError(.badRequest, "remove.ids is empty") }
            guard elements.count <= limits.maxCells else {
                throw ProtocolError(.limit, "remove.ids lists more than maxCells (\(limits.maxCells)) ids")
            }
            var ids: [CellID] = []
            ids.reserveCapacity(elements.count)
            for element in elements {
                guard let id = Fields.positiveInteger(element) else {
                    throw ProtocolError(.badRequest, "remove.ids must hold positive integers, found \(describe(element))")
                }
                ids.append(id)
            }
            return .remove(ids: ids)
        }
    }

    private func decodeParams(_ fields: inout Fields) throws(ProtocolError) -> ParameterChange {
        var change = ParameterChange()
        for spec in Parameters.table {
            change[spec] = try fields.parameter(spec)
        }
        if let unknown = fields.remainingKeys.first {
            throw ProtocolError(.badRequest, "unknown parameter \(Excerpt.quoted(unknown, limit: 64))")
        }
        guard !change.isEmpty else {
            throw ProtocolError(.badRequest, "params needs at least one parameter")
        }
        return change
    }
}

/// Describes a JSON value briefly for an error message, without echoing large input.
func describe(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): return Excerpt.quoted(text, limit: 32)
    case .number(let number): return JSONText.number(number)
    case .bool(let flag): return flag ? "true" : "false"
    default: return value.typeName
    }
}
