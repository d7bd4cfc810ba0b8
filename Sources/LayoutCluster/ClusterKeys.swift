import LayoutCore

/// Every Redis key and channel the cluster uses, in one table. A room's keys share the hash
/// tag `{ROOM}`, so a Redis Cluster would keep them on one shard (a room's writes go in one
/// MULTI).
struct ClusterKeys: Sendable {
    static let prefix = "fl:"

    let room: RoomName

    init(_ room: RoomName) { self.room = room }

    private var base: String { "\(Self.prefix){\(room.description)}:" }

    /// The owner's lease: `SET NX PX`, renewed while it steps the room (`LeasePolicy`).
    var lease: String { base + "lease" }
    /// Hash: `status`, `membership` and `frame` (the newest frame's copy for joiners).
    var mirror: String { base + "mirror" }
    /// List: the room's recent events, as the replay buffer holds them.
    var events: String { base + "events" }
    /// Hash: the room's clients on every server, client → server (kept by the owner).
    var clients: String { base + "clients" }
    /// List: relays' requests waiting for the owner (`RelayRequest`).
    var requests: String { base + "requests" }
    /// Channel: the owner's frames, events, status and data answers (`RoomBroadcast`).
    var broadcast: String { base + "out" }
    /// Stream: the room's history (`RedisHistoryStream`), one record an entry, written by its
    /// owner, read back by a server taking the room over and by relays for their clients.
    var history: String { base + "history" }
    /// Channel: a relay's nudge that requests wait in `requests`.
    var nudge: String { base + "nudge" }

    /// The room's state (a state file's bytes), written by its owner while it holds the lease.
    static func state(_ room: RoomName) -> String { "\(prefix){\(room.description)}:state" }

    /// Sorted set: the servers, scored by when each last said it is alive (ms since 1970).
    static let nodes = "\(prefix)nodes"

    /// A server's summary (`NodeSummary`), expiring with the lease period.
    static func nodeSummary(_ name: String) -> String { "\(prefix)node:\(name):summary" }

    /// A server's client numbers' reservation (`ClientNumbering`): every `c<N>@NAME` below it
    /// may have been handed out, across the server's restarts.
    static func nodeClients(_ name: String) -> String { "\(prefix)node:\(name):clients" }

    /// Channel: the name of a room whose owner is draining and just gave its lease back, its
    /// state written: a server relaying it takes it at once (`ClusterNode.handOff`). Servers of
    /// earlier versions do not listen, and take such a room at their next try (0.5 s).
    static let handOffs = "\(prefix)handoffs"

    /// Channel: messages for one server (`NodeMessage`).
    static func node(_ name: String) -> String { "\(prefix)node:\(name)" }

    /// The room a channel of `ClusterKeys` belongs to, and which channel it is.
    static func room(ofChannel channel: String) -> (RoomName, isBroadcast: Bool)? {
        guard channel.hasPrefix(prefix + "{"), let close = channel.lastIndex(of: "}") else { return nil }
        let name = channel[channel.index(channel.startIndex, offsetBy: prefix.count + 1)..<close]
        guard let room = RoomName(String(name)) else { return nil }
        let rest = channel[channel.index(after: close)...]
        switch rest {
        case ":out": return (room, true)
        case ":nudge": return (room, false)
        default: return nil
        }
    }
}
