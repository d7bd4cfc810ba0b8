import ForceLayout

/// Reading a state file with the protocol's own strict parser: Foundation's `JSONDecoder`
/// took 0.5 s for a room of 100k cells, and a room is loaded on the service thread (its
/// handshake is answered 503 when the file is bad, so it cannot wait for another thread).
extension StateFile {
    /// Why a file is not a state file: a corrupt document, or a field missing or of the
    /// wrong type (`layout.cells.3.id`).
    private struct Unreadable: Error {
        let why: String
    }

    /// The state a file of a readable format and version holds, not yet validated.
    static func read(_ bytes: [UInt8], path: String) throws(Failure) -> SavedState {
        let notOurs = { (why: String) in
            Failure(description: "state file \(path) is not a forcelayout state file (\(why)); move it away or pass another --state-dir or --state")
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes, maxDepth: 5 + Attrs.depthLimit)
        } catch {
            throw notOurs("corrupt data: \(error)")
        }
        let (format, version): (String, Int)
        do throws(Unreadable) {
            (format, version) = (try string(root["format"], at: "format"), try integer(root["version"], at: "version"))
        } catch {
            throw notOurs(error.why)
        }
        guard format == self.format else {
            throw Failure(description: "state file \(path) has format \"\(format)\", expected \"\(self.format)\"")
        }
        guard readableVersions.contains(version) else {
            throw Failure(description: "state file \(path) has version \(version); this server reads versions \(readableVersions.lowerBound) to \(readableVersions.upperBound)")
        }
        do throws(Unreadable) {
            var catalog = CellCatalog()
            let layout = try snapshot(root["layout"], catalog: &catalog, version: version)
            guard version > 1 else { return SavedState(layout: layout, reservation: layout.nextID) }
            guard let reservation = root["reservation"] else { throw Unreadable(why: "missing reservation") }
            let settled = try root["settled"].map { value throws(Unreadable) in try bool(value, at: "settled") }
            return SavedState(layout: layout, reservation: try integer(reservation, at: "reservation"),
                              settled: settled ?? false, catalog: catalog,
                              access: try root["access"].map { value throws(Unreadable) in try access(value) } ?? .unowned,
                              owners: try root["owners"].map { value throws(Unreadable) in try owners(value) } ?? [])
        } catch {
            throw notOurs(error.why)
        }
    }

    private static func snapshot(_ value: JSONValue?, catalog: inout CellCatalog, version: Int) throws(Unreadable) -> LayoutSnapshot {
        guard let value else { throw Unreadable(why: "missing layout") }
        guard case .array(let items)? = value["cells"] else { throw Unreadable(why: "wrong type at layout.cells") }
        var cells: [CellRecord] = []
        cells.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let (record, data) = try cell(item, at: "layout.cells.\(index)")
            cells.append(record)
            if !data.isEmpty { catalog[record.id] = data }
        }
        var links: [Link] = []
        switch value["links"] {
        case nil: break
        case .array(let items)?:
            links.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                let path = "layout.links.\(index)"
                var link = try link(item, at: path)
                // Up to version 5 every link was stored with a distance, 30 when its client gave
                // none: such a link follows the room's edgeLength now (the same pull while it is
                // 30, the default).
                if version <= 5, link.distance == Link.defaultDistance { link.distance = nil }
                links.append(link)
                if let attrs = item["attrs"] { catalog[link: link.source, link.target] = try self.attrs(attrs, at: path + ".attrs") }
            }
        default: throw Unreadable(why: "wrong type at layout.links")
        }
        return LayoutSnapshot(parameters: try parameters(value["parameters"]),
                              nextID: try integer(value["nextID"], at: "layout.nextID"), cells: cells, links: links)
    }

    private static func cell(_ value: JSONValue, at path: String) throws(Unreadable) -> (CellRecord, CellData) {
        guard case .object(let members) = value else { throw Unreadable(why: "wrong type at \(path)") }
        var id: JSONValue?, x: JSONValue?, y: JSONValue?, pinned: JSONValue?, radius: JSONValue?
        var data = CellData()
        for member in members {
            switch member.key {
            case "id": id = member.value
            case "x": x = member.value
            case "y": y = member.value
            case "pinned": pinned = member.value
            case "radius": radius = member.value
            case "label": data.label = try string(member.value, at: path + ".label")
            case "group": data.group = try string(member.value, at: path + ".group")
            case "color": data.color = try string(member.value, at: path + ".color")
            case "key":
                guard case .success(let key) = CellKey.make(member.value) else { throw Unreadable(why: "wrong type at \(path).key") }
                data.key = key
            case "attrs": data.attrs = try attrs(member.value, at: path + ".attrs")
            default: break
            }
        }
        let record = CellRecord(id: try integer(id, at: path + ".id"), x: try number(x, at: path + ".x"),
                                y: try number(y, at: path + ".y"), pinned: try bool(pinned, at: path + ".pinned"),
                                radius: try radius.map { value throws(Unreadable) in try number(value, at: path + ".radius") })
        return (record, data)
    }

    private static func link(_ value: JSONValue, at path: String) throws(Unreadable) -> Link {
        guard case .object = value else { throw Unreadable(why: "wrong type at \(path)") }
        return Link(source: try integer(value["source"], at: path + ".source"),
                    target: try integer(value["target"], at: path + ".target"),
                    distance: try value["distance"].map { value throws(Unreadable) in try number(value, at: path + ".distance") },
                    strength: try value["strength"].map { value throws(Unreadable) in try number(value, at: path + ".strength") })
    }

    /// Parameters as a state file or a `params` event writes them; nil when unreadable.
    package static func parameters(of value: JSONValue) -> Parameters? {
        try? parameters(value)
    }

    /// Every parameter the table names; a missing one takes its default (ranges and options
    /// are checked by `validate`, as for clients).
    private static func parameters(_ value: JSONValue?) throws(Unreadable) -> Parameters {
        guard let value else { throw Unreadable(why: "missing layout.parameters") }
        guard case .object = value else { throw Unreadable(why: "wrong type at layout.parameters") }
        var parameters = Parameters()
        for spec in Parameters.table {
            guard let field = value[spec.name] else { continue }
            let path = "layout.parameters.\(spec.name)"
            switch spec.defaultValue {
            case .number: spec.set(.number(try number(field, at: path)), in: &parameters)
            case .bool: spec.set(.bool(try bool(field, at: path)), in: &parameters)
            case .choice: spec.set(.choice(try string(field, at: path)), in: &parameters)
            }
        }
        return parameters
    }

    /// The room's access (version 5): its mode, and its links' digests and generations (all
    /// of them, or none: a room from before links).
    private static func access(_ value: JSONValue) throws(Unreadable) -> RoomAccess {
        guard case .object = value else { throw Unreadable(why: "wrong type at access") }
        let modeName = try string(value["mode"], at: "access.mode")
        guard let mode = AccessMode(rawValue: modeName) else {
            throw Unreadable(why: "access.mode is not one of \(AccessMode.namesText)")
        }
        let deleted = try value["deleted"].map { value throws(Unreadable) in try bool(value, at: "access.deleted") } ?? false
        guard value["owner"] != nil else { return RoomAccess(mode: mode, deleted: deleted) }
        func digest(_ name: String) throws(Unreadable) -> SecretDigest {
            guard let digest = SecretDigest(hex: try string(value[name], at: "access.\(name)")) else {
                throw Unreadable(why: "access.\(name) is not 64 hexadecimal digits")
            }
            return digest
        }
        func generation(_ name: String) throws(Unreadable) -> Int {
            let number = try integer(value[name], at: "access.\(name)")
            guard number >= 1 else { throw Unreadable(why: "access.\(name) is below 1") }
            return number
        }
        return RoomAccess(mode: mode, links: LinkDigests(
            owner: try digest("owner"), edit: try digest("edit"), view: try digest("view"),
            editGeneration: try generation("editGeneration"), viewGeneration: try generation("viewGeneration")),
            deleted: deleted)
    }

    /// Who added which cells: `[client, firstId, lastId]` runs (checked by `validate`).
    private static func owners(_ value: JSONValue) throws(Unreadable) -> [Ownership.Run] {
        guard case .array(let items) = value else { throw Unreadable(why: "wrong type at owners") }
        var runs: [Ownership.Run] = []
        runs.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let path = "owners.\(index)"
            guard case .array(let parts) = item, parts.count == 3 else { throw Unreadable(why: "wrong type at \(path)") }
            runs.append(Ownership.Run(client: try string(parts[0], at: path + ".0"), first: try integer(parts[1], at: path + ".1"),
                                      last: try integer(parts[2], at: path + ".2")))
        }
        return runs
    }

    /// Attributes as `Attrs` bounds them, but for their size: a file written under a larger
    /// `--max-attr-bytes` still loads.
    private static func attrs(_ value: JSONValue, at path: String) throws(Unreadable) -> Attrs? {
        switch Attrs.make(value, maxBytes: .max) {
        case .success(let attrs): return attrs
        case .failure(let problem): throw Unreadable(why: "\(path) \(problem.why)")
        }
    }

    private static func number(_ value: JSONValue?, at path: String) throws(Unreadable) -> Double {
        guard let value else { throw Unreadable(why: "missing \(path)") }
        guard case .number(let number) = value else { throw Unreadable(why: "wrong type at \(path)") }
        return number
    }

    /// A whole number below 2^53 (beyond it a JSON number no longer names one integer).
    private static func integer(_ value: JSONValue?, at path: String) throws(Unreadable) -> Int {
        let number = try number(value, at: path)
        guard abs(number) < 9_007_199_254_740_992, let integer = Int(exactly: number) else {
            throw Unreadable(why: "wrong type at \(path)")
        }
        return integer
    }

    private static func bool(_ value: JSONValue?, at path: String) throws(Unreadable) -> Bool {
        guard let value else { throw Unreadable(why: "missing \(path)") }
        guard case .bool(let flag) = value else { throw Unreadable(why: "wrong type at \(path)") }
        return flag
    }

    private static func string(_ value: JSONValue?, at path: String) throws(Unreadable) -> String {
        guard let value else { throw Unreadable(why: "missing \(path)") }
        guard case .string(let text) = value else { throw Unreadable(why: "wrong type at \(path)") }
        return text
    }
}
