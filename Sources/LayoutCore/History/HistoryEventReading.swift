import EventBus
import ForceLayout

/// An event read back from a history file (`docs/history-format.md`): the `event` message as it
/// was sent, parsed into what it did (`LayoutEvent.Detail`, which rebuilding a moment needs)
/// while its wire form is kept byte for byte. Pure.
package enum HistoryEventReading {
    /// `{"type":"event","seq":`: every event record starts so (`HistoryFileFormat.eventBody`).
    static let prefix = Array("{\"type\":\"event\",\"seq\":".utf8)

    /// nil: not an event this server wrote (a damaged or foreign record is skipped).
    package static func envelope(_ body: ArraySlice<UInt8>) -> Envelope<LayoutEvent>? {
        guard body.count > prefix.count, body.starts(with: prefix) else { return nil }
        var cursor = body.startIndex + prefix.count
        var seq: UInt64 = 0
        while cursor < body.endIndex, let digit = Self.digit(body[cursor]) {
            guard seq < EventBusBounds.maxSeq else { return nil }
            seq = seq * 10 + digit
            cursor += 1
        }
        guard seq > 0, cursor < body.endIndex, body[cursor] == UInt8(ascii: ",") else { return nil }
        guard let value = try? JSONParser.parse(Array(body), maxDepth: 8 + Attrs.depthLimit),
              case .string(let kindName)? = value["kind"], let kind = EventKind(rawValue: kindName),
              let tick = integer(value["tick"]), let at = integer(value["at"]) else { return nil }
        var by: String?
        if case .string(let name)? = value["by"] { by = name }
        guard let detail = detail(of: kind, in: value) else { return nil }
        let undo = integer(value["undo"]).flatMap { $0 > 0 ? UInt64($0) : nil }
        let event = LayoutEvent(read: kind, by: by, tick: tick, at: at, detail: detail, undo: undo,
                                encodedTail: Array(body[cursor...]))
        return Envelope(seq: seq, event: event)
    }

    /// What the event did, as far as rebuilding a moment needs it.
    private static func detail(of kind: EventKind, in value: JSONValue) -> LayoutEvent.Detail? {
        switch kind {
        case .added:
            guard let ids = ids(value["ids"]) else { return nil }
            guard let cells = value["cells"] else { return .cells(ids) }
            return records(cells).map { .added(ids, data: $0) }
        case .removed, .cleared, .deleted:
            return ids(value["ids"]).map { .cells($0) }
        case .updated:
            return value["cells"].flatMap(records).map { .updated($0) }
        case .linked:
            return value["links"].flatMap(links).map { .linked($0) }
        case .unlinked:
            return value["links"].flatMap(links).map { .unlinked($0.map { LinkEnds(source: $0.link.source, target: $0.link.target) }) }
        case .params:
            guard let object = value["params"], let parameters = StateFile.parameters(of: object) else { return nil }
            var changed: [String] = []
            if case .array(let names)? = value["changed"] {
                for case .string(let name) in names { changed.append(name) }
            }
            return .params(parameters, changed: changed)
        case .pinned:
            guard let id = integer(value["id"]), let x = number(value["x"]), let y = number(value["y"]) else { return nil }
            return .pinned(id: id, x: x, y: y)
        case .unpinned:
            return integer(value["id"]).map { .unpinned(id: $0) }
        case .failover:
            guard case .string(let node)? = value["node"] else { return nil }
            var previous: String?
            if case .string(let name)? = value["previous"] { previous = name }
            return .failover(node: node, previous: previous, pinned: ids(value["pinned"]) ?? [],
                             parameters: value["params"].flatMap(StateFile.parameters(of:)))
        case .restored:
            // A checkpoint of the restored room follows it in its history: its cells and data
            // are taken from there (its wire form keeps them for clients).
            guard let moment = integer(value["moment"]), let ids = ids(value["ids"]) else { return nil }
            return .restored(moment: moment, ids: ids, pinned: self.ids(value["pinned"]) ?? [], records: [], links: [])
        case .joined, .left:
            guard case .string(let client)? = value["client"], let clients = integer(value["clients"]) else { return nil }
            return .membership(client: client, clients: clients)
        case .access:
            // The room's access is not part of a moment (a restore keeps the access it has).
            return .relayed
        case .settled, .woke, .unsaved, .saved:
            return LayoutEvent.Detail.none
        }
    }

    private static func records(_ value: JSONValue) -> [CellRecordData]? {
        guard case .array(let items) = value else { return nil }
        var records: [CellRecordData] = []
        records.reserveCapacity(items.count)
        for item in items {
            guard case .object(let members) = item else { return nil }
            var id: CellID?, radius: Double?, data = CellData(), x: Double?, y: Double?
            for member in members {
                switch (member.key, member.value) {
                case ("id", let value): id = integer(value)
                case ("radius", .number(let number)): radius = number
                case ("x", .number(let number)): x = number
                case ("y", .number(let number)): y = number
                case ("label", .string(let text)): data.label = text
                case ("color", .string(let text)): data.color = text
                case ("group", .string(let text)): data.group = text
                case ("key", let value): data.key = try? CellKey.make(value).get()
                case ("attrs", let value): data.attrs = (try? Attrs.make(value, maxBytes: .max).get()) ?? nil
                default: break
                }
            }
            guard let id else { return nil }
            var record = CellRecordData(id: id, data: data, radius: radius)
            if let x, let y { record.place = .init(x: x, y: y) }
            records.append(record)
        }
        return records
    }

    private static func links(_ value: JSONValue) -> [LinkRecord]? {
        guard case .array(let items) = value else { return nil }
        var links: [LinkRecord] = []
        links.reserveCapacity(items.count)
        for item in items {
            guard let source = integer(item["source"]), let target = integer(item["target"]) else { return nil }
            let attrs = item["attrs"].flatMap { (try? Attrs.make($0, maxBytes: .max).get()) ?? nil }
            links.append(LinkRecord(Link(source: source, target: target, distance: number(item["distance"]),
                                         strength: number(item["strength"])), attrs: attrs))
        }
        return links
    }

    private static func ids(_ value: JSONValue?) -> [CellID]? {
        guard case .array(let items)? = value else { return nil }
        var ids: [CellID] = []
        ids.reserveCapacity(items.count)
        for item in items {
            guard let id = integer(item) else { return nil }
            ids.append(id)
        }
        return ids
    }

    private static func number(_ value: JSONValue?) -> Double? {
        guard case .number(let number)? = value else { return nil }
        return number
    }

    private static func integer(_ value: JSONValue?) -> Int? {
        guard let number = number(value), abs(number) < 9_007_199_254_740_992 else { return nil }
        return Int(exactly: number)
    }

    private static func digit(_ byte: UInt8) -> UInt64? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? UInt64(byte - UInt8(ascii: "0")) : nil
    }
}
