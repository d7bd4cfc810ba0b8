import ForceLayout
import Foundation

/// What the owner of a room sends its relays, on the room's channel (`ClusterKeys.broadcast`),
/// in the order its own clients see the same things.
package enum RoomBroadcast: Equatable, Sendable {
    /// A frame, with the room's status as of it.
    case frame(ReplicatedFrame, ReplicatedStatus)
    case events([ReplicatedEvent])
    /// The status changed with no frame (a parameter of a paused room, a client joined).
    case status(ReplicatedStatus)
    /// The room's `data` message (nil: the room has no data) as of event `through`: for each
    /// joiner whose opening ended at or before that event (`RelayRequest.data`), or for every
    /// client (`everyone`: after a failover, whose state may lack the last changes).
    case data(through: UInt64, message: [UInt8]?, everyone: Bool)
    /// The room's access changed (or is as it was, for a relay that catches up): relays judge
    /// their handshakes and connections by it. Sent before the `access` event that tells
    /// clients of it.
    case access(RoomAccess)
    /// `pointer` messages as the owner's clients got them (`whole`: the room's whole set, which
    /// replaces a relay's: kept for joiners in `ClusterKeys.mirror`, and sent by a server that
    /// took the room over). Ephemeral, like the frames: no sequence number.
    case pointers([Pointer], whole: Bool)

    private enum Tag: UInt8 { case frame = 1, events, status, data, access, pointers }

    package var encoded: [UInt8] {
        var writer = WireWriter(capacity: 256)
        switch self {
        case .frame(let frame, let status):
            writer.u8(Tag.frame.rawValue)
            frame.write(into: &writer)
            writer.data(status.encoded)
        case .events(let events):
            writer.u8(Tag.events.rawValue)
            writer.int(events.count)
            for event in events { event.write(into: &writer) }
        case .status(let status):
            writer.u8(Tag.status.rawValue)
            writer.data(status.encoded)
        case .data(let through, let message, let everyone):
            writer.u8(Tag.data.rawValue)
            writer.u64(through)
            writer.optionalData(message)
            writer.bool(everyone)
        case .access(let access):
            writer.u8(Tag.access.rawValue)
            access.write(into: &writer)
        case .pointers(let pointers, let whole):
            writer.u8(Tag.pointers.rawValue)
            writer.bool(whole)
            writer.int(pointers.count)
            for pointer in pointers {
                writer.text(pointer.client)
                writer.optionalData(pointer.name.map { Array($0.utf8) })
                writer.u64(UInt64(pointer.id ?? 0))
            }
        }
        return writer.bytes
    }

    package init(decoding bytes: [UInt8]) throws(WireMalformed) {
        var reader = WireReader(bytes)
        guard let tag = Tag(rawValue: try reader.u8()) else { throw WireMalformed("unknown broadcast") }
        switch tag {
        case .frame:
            let frame = try ReplicatedFrame(from: &reader)
            self = .frame(frame, try ReplicatedStatus(decoding: try reader.data()))
        case .events:
            let count = try reader.int()
            guard (0...1_000_000).contains(count) else { throw WireMalformed("\(count) events") }
            var events: [ReplicatedEvent] = []
            for _ in 0..<count { events.append(try ReplicatedEvent(from: &reader)) }
            self = .events(events)
        case .status:
            self = .status(try ReplicatedStatus(decoding: try reader.data()))
        case .data:
            self = .data(through: try WireBounds.seq(try reader.u64(), "a data answer's event"),
                         message: try reader.optionalData(), everyone: try reader.bool())
        case .access:
            self = .access(try RoomAccess(from: &reader))
        case .pointers:
            let whole = try reader.bool()
            let count = try reader.int()
            try WireBounds.check(count, in: 0...WireBounds.clients.upperBound, "a pointer list's length")
            var pointers: [Pointer] = []
            for _ in 0..<count {
                let client = try WireBounds.client(try reader.text())
                let name = try reader.optionalData().map { bytes throws(WireMalformed) in try WireBounds.pointerName(bytes) }
                let id = try reader.u64()
                guard id <= UInt64(WireBounds.largestCellID) else { throw WireMalformed("a pointer at cell \(id)") }
                pointers.append(Pointer(client: client, name: name, id: id == 0 ? nil : CellID(id)))
            }
            self = .pointers(pointers, whole: whole)
        }
        try reader.finish()
    }
}

/// A room's status as its owner knows it, with its clients on every server.
package struct ReplicatedStatus: Equatable, Sendable, Codable {
    package var layout: LayoutStatus
    package var clients: Int
    /// The server that steps the room, and the last event it published before this status
    /// (the replicator sets both): a relay that has not had that event missed some.
    package var owner = ""
    package var lastSeq: UInt64 = 0

    package init(layout: LayoutStatus, clients: Int, owner: String = "", lastSeq: UInt64 = 0) {
        self.layout = layout
        self.clients = clients
        self.owner = owner
        self.lastSeq = lastSeq
    }

    package var encoded: [UInt8] { Array((try? JSONEncoder().encode(self)) ?? Data()) }

    init(layout: LayoutStatus, clients: Int) {
        self.layout = layout
        self.clients = clients
    }

    /// Within `WireBounds`: the relay shows these figures, numbers its events on from `lastSeq`,
    /// and a server taking the room over goes on from its tick and version.
    package init(decoding bytes: [UInt8]) throws(WireMalformed) {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(bytes))
        } catch {
            throw WireMalformed("a status that does not decode: \(String(describing: error).prefix(200))")
        }
        try WireBounds.check(clients, in: WireBounds.clients, "a status's clients")
        if !owner.isEmpty { _ = try WireBounds.node(owner) }
        _ = try WireBounds.seq(lastSeq, "a status's last event")
        try layout.checkBounds()
    }
}

extension LayoutStatus {
    /// Every figure within `WireBounds`, the parameters in their ranges (a relay's copy of the
    /// owner's status, read from Redis).
    func checkBounds() throws(WireMalformed) {
        _ = try WireBounds.counter(tick, "a status's tick")
        _ = try WireBounds.counter(version, "a status's version")
        try WireBounds.check(cells, in: WireBounds.cells, "a status's cells")
        try WireBounds.check(pinned.count, in: WireBounds.cells, "a status's pinned cells")
        _ = try WireBounds.counter(frameBytes, "a status's frame size")
        for (value, what) in [(tickMs, "tick time"), (tickMsP99, "tick time"), (stepsPerSecond ?? 0, "step rate"), (maxMove, "move"), (totalMove, "move")]
        where !(value.isFinite && value >= 0) {
            throw WireMalformed("a status's \(what) \(value)")
        }
        guard parameters.sanitized == parameters else { throw WireMalformed("a status's parameters are out of their ranges") }
        if let physics, LayoutModel(rawValue: physics) == nil || physics == LayoutModel.auto.rawValue {
            throw WireMalformed("a status's physics \(physics.prefix(40))")
        }
    }
}
