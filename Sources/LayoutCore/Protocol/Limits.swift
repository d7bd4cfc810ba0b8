import EventBus

/// The limits a server enforces, announced to every client in `hello.limits`. Each is declared
/// once, in `Limits.table` (its default, bounds, help and key); `serve`'s flags, their
/// checks, `hello.limits` and the import's reading of it all come from that table.
public struct Limits: Sendable, Equatable {
    public var maxCells: Int = initial(\.maxCells)
    public var maxAddPerMessage: Int = initial(\.maxAddPerMessage)
    /// Links one room holds at once.
    public var maxLinks: Int = initial(\.maxLinks)
    public var maxMessageBytes: Int = initial(\.maxMessageBytes)
    /// Bytes of a cell's or a link's `attrs` (its canonical encoding).
    public var maxAttrBytes: Int = initial(\.maxAttrBytes)
    /// Events kept for `hello` and `replay`.
    public var replayBuffer: Int = initial(\.replayBuffer)
    /// Bytes of events kept for `hello` and `replay` (their messages' sizes): whatever the
    /// events, a `hello` or a `replay` is at most this much history.
    public var replayBytes: Int = initial(\.replayBytes)
    /// A room's history (`HistoryLog`): at most this many bytes, nothing older than this.
    public var historyBytes: Int = initial(\.historyBytes)
    public var historySeconds: Int = initial(\.historySeconds)
    /// Events in one `history` answer.
    public var historyBatch: Int = initial(\.historyBatch)
    /// Token bucket per connection: sustained messages per second and burst size.
    public var messagesPerSecond: Double = initial(\.messagesPerSecond)
    public var messageBurst: Double = initial(\.messageBurst)
    /// Events waiting for one connection before it is closed as too slow.
    public var maxEventBacklog: Int = initial(\.maxEventBacklog)
    /// Connections served at once; the handshake of one more is refused with HTTP 503.
    public var maxClients: Int = initial(\.maxClients)
    /// TCP connections held at once, WebSockets or not (see `ConnectionTable`).
    public var maxConnections: Int = initial(\.maxConnections)
    /// TCP connections from one address (an IPv6 /64) at once.
    public var maxConnectionsPerAddress: Int = initial(\.maxConnectionsPerAddress)
    /// Bytes queued for one connection (events, replies, stats, the message being written)
    /// before it is closed with 1008; one message larger than this alone is still sent.
    public var maxQueuedBytes: Int = initial(\.maxQueuedBytes)
    /// Seconds a connection that is not a WebSocket may go without a complete request
    /// (after it opened or after its last request).
    public var requestTimeout: Int = initial(\.requestTimeout)
    /// Rooms in memory at once; a handshake that would make one more is refused with 503.
    public var maxRooms: Int = initial(\.maxRooms)
    /// New rooms one address may create in any 60 s; beyond that the handshake gets 429.
    public var roomsPerMinute: Int = initial(\.roomsPerMinute)
    /// Rooms in memory one address may have created; one more is refused with 429.
    public var maxRoomsPerAddress: Int = initial(\.maxRoomsPerAddress)
    /// Cells of all rooms in memory together; an `add` past it is refused with `limit`.
    public var maxTotalCells: Int = initial(\.maxTotalCells)
    /// Seconds a settled room with no clients stays in memory before it is saved and unloaded.
    public var roomIdleSeconds: Int = initial(\.roomIdleSeconds)
    /// Exports (`GET /export/…`) one address may have under way at once; one more gets 429.
    public var maxExportsPerAddress: Int = initial(\.maxExportsPerAddress)
    /// Bytes of export documents held for connections still writing them; past it a new
    /// export gets 503.
    public var maxExportBytes: Int = initial(\.maxExportBytes)
    /// Changes each client may undo in a row (`undo`), newest first; 0: none.
    public var undoDepth: Int = initial(\.undoDepth)

    public init() {}

    /// What a room's bus keeps for `hello` and `replay`.
    public var replay: ReplayBounds { ReplayBounds(events: replayBuffer, bytes: replayBytes) }

    /// What a room's history keeps.
    public var history: HistoryBounds { HistoryBounds(bytes: historyBytes, seconds: historySeconds) }

    private static func initial<Value>(_ path: WritableKeyPath<Limits, Value>) -> Value {
        guard let spec = table.first(where: { $0.keyPath == path }) else { fatalError("Limits.table has no row for \(path)") }
        switch spec.storage {
        case .count(_, let value as Value), .rate(_, let value as Value): return value
        default: fatalError("Limits.table gives \(path) a default of another kind")
        }
    }
}
