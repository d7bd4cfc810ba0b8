extension Limits {
    /// Every limit, once, in the order `hello.limits` lists them. `serve` takes each as a flag
    /// (`LimitSpec.flag`) checked against its bounds, `hello.limits` and the import's reading
    /// of it follow this table, and a test holds the README's table of flags to it; nothing
    /// else lists the limits. Rules between two limits are in `Limits.reconcile`.
    public static let table: [LimitSpec] = [
        .count("maxCells", \.maxCells, default: 100_000, atLeast: 1, "Most cells the layout may hold."),
        .count("maxAddPerMessage", \.maxAddPerMessage, default: 1000, atLeast: 1,
               "Most cells one add message may ask for (at most --max-cells)."),
        .count("maxLinks", \.maxLinks, default: 200_000, atLeast: 0, "Most links one room may hold (0: no links)."),
        .count("maxMessageBytes", \.maxMessageBytes, default: 65_536, atLeast: 1024, atMost: 16 << 20,
               "Largest client message in bytes; a larger one closes its connection with 1009."),
        .count("maxAttrBytes", \.maxAttrBytes, default: 1024, atLeast: 2, atMost: 65_536,
               "Largest attrs of one cell or link in bytes (its JSON encoded without spaces): the user's data kept beside label, colour and group."),
        .count("replayBuffer", \.replayBuffer, default: 256, atLeast: 1, atMost: 100_000,
               "Recent events kept for late joiners (hello) and replay."),
        .count("replayBytes", \.replayBytes, default: 1 << 20, atLeast: 0, atMost: 1 << 30,
               "Bytes of recent events kept for late joiners (hello) and replay: the most history a hello carries."),
        .count("historyBytes", \.historyBytes, default: 32 << 20, atLeast: 0, atMost: 1 << 36,
               "Bytes of history each room keeps (events, keyframes of positions, checkpoints; 0: none): the oldest goes first. In its folder beside its state file with --state-dir, in memory otherwise."),
        .count("historySeconds", \.historySeconds, default: 7 * 86_400, atLeast: 0, atMost: 10 * 365 * 86_400, unit: "seconds",
               "Seconds of history each room keeps (0: none): older moments go first."),
        .count("historyBatch", \.historyBatch, default: 1000, atLeast: 1, atMost: 100_000,
               "Most events one history answer carries (a client asks for older ones with before)."),
        .rate("messagesPerSecond", \.messagesPerSecond, default: 60, above: 0,
              "Messages a second each connection may send, sustained (token bucket)."),
        .rate("messageBurst", \.messageBurst, default: 120, atLeast: 1, "Messages a connection may send in a burst."),
        .count("maxEventBacklog", \.maxEventBacklog, default: 4096, atLeast: 16,
               "Events waiting for one connection before it is closed with 1008 (too slow)."),
        .count("maxClients", \.maxClients, default: 1000, atLeast: 1,
               "Most WebSocket clients served at once; one more is refused with HTTP 503."),
        .count("maxConnections", \.maxConnections, default: 4096, atLeast: 1,
               "Most TCP connections held at once, WebSockets or not (at least --max-clients); at the cap the oldest connection that is not a WebSocket makes room, else one more is refused."),
        .count("maxConnectionsPerAddress", \.maxConnectionsPerAddress, default: 256, atLeast: 1,
               "Most TCP connections from one address (an IPv6 /64) at once; at the cap its oldest connection that is not a WebSocket makes room, else one more is refused."),
        .count("maxQueuedBytes", \.maxQueuedBytes, default: 4 << 20, atLeast: 65_536,
               "Bytes queued for one connection (events, replies, the message being written) before it is closed with 1008."),
        .count("requestTimeout", \.requestTimeout, default: 10, atLeast: 1, atMost: 3600, unit: "seconds",
               "Seconds a connection that is not a WebSocket may go without a complete request before it is closed."),
        .count("maxRooms", \.maxRooms, default: 1000, atLeast: 1,
               "Most rooms in memory at once. At the cap a room nobody is in makes way (saved and unloaded with --state-dir; without it, evicted with its cells after --room-evict-seconds empty); with none, a handshake that would make one more gets 503."),
        .count("roomsPerMinute", \.roomsPerMinute, default: 30, atLeast: 1,
               "New rooms one address may create in a minute; beyond that the handshake gets 429."),
        .count("maxRoomsPerAddress", \.maxRoomsPerAddress, default: 250, atLeast: 1,
               "Most rooms in memory one address (an IPv6 /64) may have created; one more gets 429 (default: a quarter of --max-rooms, at least 16 or all of them when fewer)."),
        .count("maxTotalCells", \.maxTotalCells, default: 1_000_000, atLeast: 1,
               "Most cells of all rooms in memory together (--max-cells bounds each room)."),
        .count("roomIdleSeconds", \.roomIdleSeconds, default: 300, atLeast: 1,
               "Seconds a settled room with no clients stays in memory before it is saved and unloaded (rooms with a file only)."),
        .count("maxExportsPerAddress", \.maxExportsPerAddress, default: 2, atLeast: 1,
               "Exports (GET /export/...) one address may have under way at once; one more is answered 429."),
        .count("maxExportBytes", \.maxExportBytes, default: 256 << 20, atLeast: 1 << 20,
               "Bytes of export documents held for clients still downloading them; past it a new export is answered 503."),
        .count("undoDepth", \.undoDepth, default: 100, atLeast: 0, atMost: 10_000,
               "Changes each client may undo (undo), its newest first; 0: none. Kept in memory by the server that steps the room."),
    ]

    /// The row of the limit stored at `path`; every stored property has one.
    public static func spec(for path: PartialKeyPath<Limits>) -> LimitSpec {
        guard let spec = table.first(where: { $0.keyPath == path }) else { fatalError("Limits.table has no row for \(path)") }
        return spec
    }

    /// The rules between limits, after each was set from its flag (`given`: the keys set):
    /// an add asks for at most `maxCells`; rooms per address default to a quarter of
    /// `maxRooms` (at least 16, or all when fewer); connections are at least clients.
    /// Returns why the limits cannot be, or nil.
    public mutating func reconcile(given: Set<String>) -> String? {
        maxAddPerMessage = min(maxAddPerMessage, maxCells)
        if !given.contains("maxRoomsPerAddress") { maxRoomsPerAddress = Self.defaultRoomsPerAddress(maxRooms: maxRooms) }
        guard maxConnections >= maxClients else {
            return "--max-connections (\(maxConnections)) must be at least --max-clients (\(maxClients))"
        }
        return nil
    }

    /// A quarter of the rooms, but at least 16 (all of them when there are fewer).
    public static func defaultRoomsPerAddress(maxRooms: Int) -> Int {
        max(maxRooms / 4, min(16, maxRooms))
    }
}

extension LimitSpec {
    /// The key path of its storage in `Limits`.
    var keyPath: PartialKeyPath<Limits> {
        switch storage {
        case .count(let path, _): path
        case .rate(let path, _): path
        }
    }
}
