import ForceLayout

/// A request as a client writes it: what `forcelayout import` sends, and what the fuzzer
/// checks a decoded request against (decoding it again gives the same request).
extension ClientRequest {
    public init(_ message: ClientMessage, ref: String? = nil) {
        self.message = message
        self.ref = ref
    }

    public var encoded: [UInt8] {
        var writer = JSONWriter()
        Self.writeMessage(message, into: &writer)
        if let ref {
            writer.raw(",\"ref\":")
            writer.string(ref)
        }
        writer.raw("}")
        return writer.bytes
    }

    /// The message's members but the closing brace.
    private static func writeMessage(_ message: ClientMessage, into writer: inout JSONWriter) {
        switch message {
        case .layout(.add(let count, let spawn)):
            writer.raw("{\"type\":\"add\",\"count\":")
            writer.integer(count)
            writer.raw(",\"spawn\":")
            writeSpawn(spawn, into: &writer)
        case .layout(.addCells), .layout(.update), .layout(.link), .layout(.unlink):
            writeDataMessage(message, into: &writer)
        case .layout(.remove(let ids)):
            writer.raw("{\"type\":\"remove\",\"ids\":")
            writer.integers(ids)
        case .layout(.removeNewest(let count)):
            writer.raw("{\"type\":\"remove\",\"count\":")
            writer.integer(count)
        case .layout(.clear):
            writer.raw("{\"type\":\"clear\"")
        case .layout(.undo):
            writer.raw("{\"type\":\"undo\"")
        case .layout(.params(let change)):
            writer.raw("{\"type\":\"params\"")
            for (spec, value) in change.entries {
                writer.raw(",")
                writer.string(spec.name)
                writer.raw(":")
                writer.parameterValue(value)
            }
        case .layout(.pin(let id, let x, let y, let drag)):
            writer.raw("{\"type\":\"pin\",\"id\":")
            writer.integer(id)
            writePoint(x, y, into: &writer, open: ",")
            if drag { writer.raw(",\"drag\":true") }
        case .layout(.unpin(let id)):
            writer.raw("{\"type\":\"unpin\",\"id\":")
            writer.integer(id)
        case .layout(.point(let id, let name)):
            writer.raw("{\"type\":\"point\",\"id\":")
            if let id { writer.integer(id) } else { writer.raw("null") }
            if let name { writer.member("name", name) }
        case .subscribe(let selection):
            writer.raw("{\"type\":\"subscribe\",\"kinds\":")
            writeKinds(selection, into: &writer)
        case .replay(let count, let selection):
            writer.raw("{\"type\":\"replay\",\"count\":")
            writer.integer(count)
            writer.raw(",\"kinds\":")
            writeKinds(selection, into: &writer)
        case .setAccess(let mode), .layout(.access(.mode(let mode))):
            writer.raw("{\"type\":\"access\",\"access\":")
            writer.string(mode.rawValue)
        case .rotate(let kinds):
            writer.raw("{\"type\":\"rotate\",\"links\":")
            writer.strings(LinkKind.allCases.filter(kinds.contains).map(\.rawValue))
        case .deleteRoom, .layout(.access(.delete)):
            writer.raw("{\"type\":\"delete\"")
        case .layout(.restore(let at)):
            writer.raw("{\"type\":\"restore\",\"at\":")
            writer.integer(at)
        case .history(let before, let count):
            writer.raw("{\"type\":\"history\",\"count\":")
            writer.integer(count)
            if let before { writer.member("before", before) }
        case .moment(let at, let have, let patch):
            writer.raw("{\"type\":\"moment\",\"at\":")
            writer.integer(at)
            if let have { writer.member("have", have) }
            if patch { writer.member("patch", true) }
        case .layout(.access(.links)):
            // The digests a rotation made are the server's, never a client's to send: the
            // message that asked for them is a rotate.
            writer.raw("{\"type\":\"rotate\"")
        }
    }

    /// `add` with cells, `update`, `link`, `unlink`: their members but the closing brace.
    private static func writeDataMessage(_ message: ClientMessage, into writer: inout JSONWriter) {
        switch message {
        case .layout(.addCells(let cells, let spawn)):
            writer.raw("{\"type\":\"add\",\"cells\":")
            writer.array(cells) { writer, cell in
                // Each member after a comma; the first one's comma dropped.
                var members = JSONWriter()
                members.cellFields(cell.data, radius: cell.seed.radius)
                if let x = cell.seed.x, let y = cell.seed.y { writePoint(x, y, into: &members, open: ",") }
                writer.raw("{")
                writer.raw(Array(members.bytes.dropFirst()))
                writer.raw("}")
            }
            writer.raw(",\"spawn\":")
            writeSpawn(spawn, into: &writer)
        case .layout(.update(let edits)):
            writer.raw("{\"type\":\"update\",\"cells\":")
            writer.array(edits) { writeEdit($1, into: &$0) }
        case .layout(.link(let links)):
            writer.raw("{\"type\":\"link\",\"links\":")
            writer.array(links) { $0.linkRecord($1) }
        case .layout(.unlink(let ends)):
            writer.raw("{\"type\":\"unlink\",\"links\":")
            writer.array(ends) { $0.linkEnds($1) }
        default:
            break
        }
    }

    private static func writeEdit(_ edit: CellEdit, into writer: inout JSONWriter) {
        writer.raw("{\"id\":")
        writer.integer(edit.id)
        writeEdit("label", edit.label, into: &writer) { $0.string($1) }
        writeEdit("color", edit.color, into: &writer) { $0.string($1) }
        writeEdit("group", edit.group, into: &writer) { $0.string($1) }
        writeEdit("radius", edit.radius, into: &writer) { $0.number($1) }
        writeEdit("key", edit.key, into: &writer) { $0.cellKey($1) }
        writeEdit("attrs", edit.attrs, into: &writer) { $0.attrs($1) }
        if let x = edit.x, let y = edit.y { writePoint(x, y, into: &writer, open: ",") }
        writer.raw("}")
    }

    private static func writeEdit<Value>(_ name: StaticString, _ edit: FieldEdit<Value>, into writer: inout JSONWriter,
                                         _ value: (inout JSONWriter, Value) -> Void) {
        switch edit {
        case .keep: return
        case .reset:
            writer.raw(",")
            writer.key(name)
            writer.raw("null")
        case .set(let set):
            writer.raw(",")
            writer.key(name)
            value(&writer, set)
        }
    }

    private static func writeSpawn(_ spawn: Spawn, into writer: inout JSONWriter) {
        switch spawn {
        case .random: writer.string("random")
        case .center: writer.string("center")
        case .border: writer.string("border")
        case .point(let x, let y):
            writePoint(x, y, into: &writer, open: "{")
            writer.raw("}")
        }
    }

    /// `"x":…,"y":…` after `open`.
    private static func writePoint(_ x: Double, _ y: Double, into writer: inout JSONWriter, open: StaticString) {
        writer.raw(open)
        writer.raw("\"x\":")
        writer.number(x)
        writer.raw(",\"y\":")
        writer.number(y)
    }

    private static func writeKinds(_ selection: EventSelection, into writer: inout JSONWriter) {
        switch selection {
        case .all: writer.string("all")
        case .only(let set): writer.strings(set.map(\.rawValue).sorted())
        }
    }
}
