import EventBus

/// The limits a server enforces, announced to every client in `hello.limits`.
public struct Limits: Sendable, Equatable {
    public var maxCells: Int = 100_000
    public var maxAddPerMessage: Int = 1000
    /// Links one room holds at once.
    public var maxLinks: Int = 200_000
    public var maxMessageBytes: Int = 65_536
    /// Bytes of a cell's or a link's `attrs` (its canonical encoding).
    public var maxAttrBytes: Int = 1024
    /// Events kept for `hello` and `replay`.
    public var replayBuffer: Int = 256
    /// Bytes of events kept for `hello` and `replay` (their messages' sizes): whatever the
    /// events, a `hello` or a `replay` is at most this much history.
    public var replayBytes: Int = 1 << 20
    /// Token bucket per connection: sustained messages per second and burst size.
    public var messagesPerSecond: Double = 60
    public var messageBurst: Double = 120
    /// Events waiting for one connection before it is closed as too slow.
    public var maxEventBacklog: Int = 4096
    /// Connections served at once; the handshake of one more is refused with HTTP 503.
    public var maxClients: Int = 1000
    /// TCP connections held at once, WebSockets or not (see `ConnectionTable`).
    public var maxConnections: Int = 4096
    /// TCP connections from one address (an IPv6 /64) at once.
    public var maxConnectionsPerAddress: Int = 256
    /// Bytes queued for one connection (events, replies, stats, the message being written)
    /// before it is closed with 1008; one message larger than this alone is still sent.
    public var maxQueuedBytes: Int = 4 << 20
    /// Seconds a connection that is not a WebSocket may go without a complete request
    /// (after it opened or after its last request).
    public var requestTimeout: Int = 10
    /// Rooms in memory at once; a handshake that would make one more is refused with 503.
    public var maxRooms: Int = 1000
    /// New rooms one address may create in any 60 s; beyond that the handshake gets 429.
    public var roomsPerMinute: Int = 30
    /// Rooms in memory one address may have created; one more is refused with 429.
    public var maxRoomsPerAddress: Int = 250
    /// Cells of all rooms in memory together; an `add` past it is refused with `limit`.
    public var maxTotalCells: Int = 1_000_000
    /// Seconds a settled room with no clients stays in memory before it is saved and unloaded.
    public var roomIdleSeconds: Int = 300
    /// Exports (`GET /export/…`) one address may have under way at once; one more gets 429.
    public var maxExportsPerAddress: Int = 2
    /// Bytes of export documents held for connections still writing them; past it a new
    /// export gets 503.
    public var maxExportBytes: Int = 256 << 20

    public init() {}

    /// What a room's bus keeps for `hello` and `replay`.
    public var replay: ReplayBounds { ReplayBounds(events: replayBuffer, bytes: replayBytes) }
}
