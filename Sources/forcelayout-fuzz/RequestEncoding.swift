import LayoutServer

extension MessagePathFuzzer {
    /// The request as a client would write it.
    static func encode(_ request: ClientRequest) -> [UInt8] {
        var writer = JSONWriter()
        func kinds(_ selection: EventSelection) {
            switch selection {
            case .all: writer.string("all")
            case .only(let set): writer.strings(set.map(\.rawValue).sorted())
            }
        }
        switch request.message {
        case .layout(.add(let count, let spawn)):
            writer.raw("{\"type\":\"add\",\"count\":")
            writer.integer(count)
            writer.raw(",\"spawn\":")
            switch spawn {
            case .random: writer.string("random")
            case .center: writer.string("center")
            case .border: writer.string("border")
            case .point(let x, let y):
                writer.raw("{\"x\":")
                writer.number(x)
                writer.raw(",\"y\":")
                writer.number(y)
                writer.raw("}")
            }
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
            writer.raw(",\"x\":")
            writer.number(x)
            writer.raw(",\"y\":")
            writer.number(y)
        case .layout(.unpin(let id)):
            writer.raw("{\"type\":\"unpin\",\"id\":")
            writer.integer(id)
        case .subscribe(let selection):
            writer.raw("{\"type\":\"subscribe\",\"kinds\":")
            kinds(selection)
        case .replay(let count, let selection):
            writer.raw("{\"type\":\"replay\",\"count\":")
            writer.integer(count)
            writer.raw(",\"kinds\":")
            kinds(selection)
        }
        if let ref = request.ref {
            writer.raw(",\"ref\":")
            writer.string(ref)
        }
        writer.raw("}")
        return writer.bytes
    }
}
