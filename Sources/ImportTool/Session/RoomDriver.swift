import LayoutCore

/// What a driver of `ImportClient` asks of its connection.
public enum SessionAction<Summary: Equatable & Sendable>: Equatable, Sendable {
    /// Send these text messages, in order, then wait for their answers.
    case send([[UInt8]])
    /// Nothing to send now.
    case wait
    case finished(Summary)
    case failed(String)
    /// Close the connection and open a new one to the same room (its `hello` resumes).
    case reconnect
}

/// What `ImportClient` drives over its connection to a room: a value with transitions that say
/// what to send (`ImportSession` sends a graph file, `PlaybackSession` plays a recording). No I/O.
public protocol RoomDriver: Sendable {
    associatedtype Summary: Equatable & Sendable

    /// A text message from the server, parsed.
    mutating func received(_ message: JSONValue) -> SessionAction<Summary>
    /// A binary frame from the server, holding `cells` cells.
    mutating func receivedFrame(cells: Int) -> SessionAction<Summary>
    /// Time goes on (the client calls this every 100 ms or so).
    mutating func tick(now: Double) -> SessionAction<Summary>
    /// The connection ended before the driver finished.
    mutating func connectionLost(now: Double) -> SessionAction<Summary>

    /// Before the server's first `hello`: a connection refused now is the end.
    var connecting: Bool { get }
    var progress: (done: Int, total: Int) { get }
    /// The server's rate limit, for pacing the messages.
    var messagesPerSecond: Double { get }
    var messageBurst: Double { get }
}

extension RoomDriver {
    /// Frames are positions: a driver that needs none skips them.
    public mutating func receivedFrame(cells: Int) -> SessionAction<Summary> { .wait }
}
