/// The limits a server enforces, announced to every client in `hello.limits`.
public struct Limits: Sendable, Equatable {
    public var maxCells: Int = 100_000
    public var maxAddPerMessage: Int = 1000
    public var maxMessageBytes: Int = 65_536
    /// Events kept for `hello` and `replay`.
    public var replayBuffer: Int = 256
    /// Token bucket per connection: sustained messages per second and burst size.
    public var messagesPerSecond: Double = 60
    public var messageBurst: Double = 120
    /// Events waiting for one connection before it is closed as too slow.
    public var maxEventBacklog: Int = 4096
    /// Connections served at once; the handshake of one more is refused with HTTP 503.
    public var maxClients: Int = 1000

    public init() {}
}
