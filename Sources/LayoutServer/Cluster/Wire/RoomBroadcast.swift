import Foundation

/// What the owner of a room sends its relays, on the room's channel (`ClusterKeys.broadcast`),
/// in the order its own clients see the same things.
enum RoomBroadcast: Equatable, Sendable {
    /// A frame, with the room's status as of it.
    case frame(ReplicatedFrame, ReplicatedStatus)
    case events([ReplicatedEvent])
    /// The status changed with no frame (a parameter of a paused room, a client joined).
    case status(ReplicatedStatus)
    /// The room's `data` message (nil: the room has no data) as of event `through`: for each
    /// joiner whose opening ended at or before that event (`RelayRequest.data`), or for every
    /// client (`everyone`: after a failover, whose state may lack the last changes).
    case data(through: UInt64, message: [UInt8]?, everyone: Bool)

    private enum Tag: UInt8 { case frame = 1, events, status, data }

    var encoded: [UInt8] {
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
        }
        return writer.bytes
    }

    init(decoding bytes: [UInt8]) throws(WireMalformed) {
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
            self = .data(through: try reader.u64(), message: try reader.optionalData(), everyone: try reader.bool())
        }
        try reader.finish()
    }
}

/// A room's status as its owner knows it, with its clients on every server.
struct ReplicatedStatus: Equatable, Sendable, Codable {
    var layout: LayoutStatus
    var clients: Int
    /// The server that steps the room, and the last event it published before this status
    /// (the replicator sets both): a relay that has not had that event missed some.
    var owner = ""
    var lastSeq: UInt64 = 0

    var encoded: [UInt8] { Array((try? JSONEncoder().encode(self)) ?? Data()) }

    init(layout: LayoutStatus, clients: Int) {
        self.layout = layout
        self.clients = clients
    }

    init(decoding bytes: [UInt8]) throws(WireMalformed) {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(bytes))
        } catch {
            throw WireMalformed("a status that does not decode: \(error)")
        }
    }
}
