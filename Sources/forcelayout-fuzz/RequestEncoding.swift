import ForceLayout
import LayoutServer

extension MessagePathFuzzer {
    /// The request as a client would write it.
    static func encode(_ request: ClientRequest) -> [UInt8] {
        var writer = JSONWriter()
        writeMessage(request.message, into: &writer)
        if let ref = request.ref {
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
        case .layout(.remove(let ids)):
            writer.raw("{\"type\":\"remove\",\"ids\":")
            writer.integers(ids)
        case .layout(.removeNewest(let count)):
            writer.raw("{\"type\":\"remove\",\"count\":")
            writer.integer(count)
        case .layout(.clear):
            writer.raw("{\"type\":\"clear\"")
        case .layout(.params(let change)):
            writer.raw("{\"type\":\"params\"")
            for (spec, value) in change.entries {
                writer.raw(",")
                writer.string(spec.name)
                writer.raw(":")
                writer.parameterValue(value)
            }
        case .layout(.pin(let id, let x, let y)):
            writer.raw("{\"type\":\"pin\",\"id\":")
            writer.integer(id)
            writePoint(x, y, into: &writer, open: ",")
        case .layout(.unpin(let id)):
            writer.raw("{\"type\":\"unpin\",\"id\":")
            writer.integer(id)
        case .subscribe(let selection):
            writer.raw("{\"type\":\"subscribe\",\"kinds\":")
            writeKinds(selection, into: &writer)
        case .replay(let count, let selection):
            writer.raw("{\"type\":\"replay\",\"count\":")
            writer.integer(count)
            writer.raw(",\"kinds\":")
            writeKinds(selection, into: &writer)
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
