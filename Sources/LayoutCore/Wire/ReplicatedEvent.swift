import EventBus

/// An event as the owner of a room stamped and encoded it: a relay publishes it on its own bus
/// with the same sequence number and the same bytes (`LayoutEvent(relayedKind:…)`).
package struct ReplicatedEvent: Equatable, Sendable {
    package let seq: UInt64
    let kind: EventKind
    let by: String?
    let tick: Int
    let at: Int
    package let encodedTail: [UInt8]

    package init(_ envelope: Envelope<LayoutEvent>) {
        seq = envelope.seq
        kind = envelope.event.kind
        by = envelope.event.by
        tick = envelope.event.tick
        at = envelope.event.at
        encodedTail = envelope.event.encodedTail
    }

    package var envelope: Envelope<LayoutEvent> {
        Envelope(seq: seq, event: LayoutEvent(relayedKind: kind, by: by, tick: tick, at: at, encodedTail: encodedTail))
    }

    package func write(into writer: inout WireWriter) {
        writer.u64(seq)
        writer.text(kind.rawValue)
        writer.optionalData(by.map { Array($0.utf8) })
        writer.int(tick)
        writer.int(at)
        writer.data(encodedTail)
    }

    /// Within `WireBounds`: a sequence number from 1 to 2^53 (one above has no next number a
    /// relay could go on from), a client id, a tick and a time that are counters.
    package init(from reader: inout WireReader) throws(WireMalformed) {
        seq = try WireBounds.seq(try reader.u64(), "an event's sequence number")
        guard seq > 0 else { throw WireMalformed("an event numbered 0") }
        let name = try reader.text()
        guard let kind = EventKind(rawValue: name) else { throw WireMalformed("unknown event kind \(name.prefix(40).debugDescription)") }
        self.kind = kind
        if let raw = try reader.optionalData() {
            guard let text = String(validating: raw, as: UTF8.self) else { throw WireMalformed("an event's client is not UTF-8") }
            by = try WireBounds.client(text)
        } else {
            by = nil
        }
        tick = try WireBounds.counter(try reader.int(), "an event's tick")
        at = try WireBounds.counter(try reader.int(), "an event's time")
        encodedTail = try reader.data()
    }
}
