import EventBus

/// An event as the owner of a room stamped and encoded it: a relay publishes it on its own bus
/// with the same sequence number and the same bytes (`LayoutEvent(relayedKind:…)`).
struct ReplicatedEvent: Equatable, Sendable {
    let seq: UInt64
    let kind: EventKind
    let by: String?
    let tick: Int
    let at: Int
    let encodedTail: [UInt8]

    init(_ envelope: Envelope<LayoutEvent>) {
        seq = envelope.seq
        kind = envelope.event.kind
        by = envelope.event.by
        tick = envelope.event.tick
        at = envelope.event.at
        encodedTail = envelope.event.encodedTail
    }

    var envelope: Envelope<LayoutEvent> {
        Envelope(seq: seq, event: LayoutEvent(relayedKind: kind, by: by, tick: tick, at: at, encodedTail: encodedTail))
    }

    func write(into writer: inout WireWriter) {
        writer.u64(seq)
        writer.text(kind.rawValue)
        writer.optionalData(by.map { Array($0.utf8) })
        writer.int(tick)
        writer.int(at)
        writer.data(encodedTail)
    }

    init(from reader: inout WireReader) throws(WireMalformed) {
        seq = try reader.u64()
        let name = try reader.text()
        guard let kind = EventKind(rawValue: name) else { throw WireMalformed("unknown event kind \(name.prefix(40))") }
        self.kind = kind
        by = try reader.optionalData().map { String(decoding: $0, as: UTF8.self) }
        tick = try reader.int()
        at = try reader.int()
        encodedTail = try reader.data()
    }
}
