/// What a load run is asked to do (`forcelayout load`'s options).
public struct LoadOptions: Sendable {
    /// Where the control connection goes (the set-up), and the first of `urls`.
    public var url: WebSocketURL { urls[0] }
    /// The servers (a cluster's, all serving the same room): clients are dealt out over them
    /// in turn.
    public var urls: [WebSocketURL]
    public var clients = 200
    public var stalled = 0
    /// Slow readers: each reads `slowFraction` of the stream's bandwidth (`SlowPace`) through a
    /// receive buffer of `slowReceiveBuffer` bytes, and reports the age of the frames it gets.
    public var slow = 0
    public var slowFraction = 0.25
    public var slowReceiveBuffer = 2048
    public var seconds = 60.0
    public var warmupSeconds = 5.0
    /// Cells to add (and keep moving, threshold 0) before measuring; nil: leave the layout.
    /// With `rooms`: in every room.
    public var cells: Int?
    /// Steps per second to ask for along with the cells; nil: the layout's own.
    public var tickRate: Double?
    /// One reader per room (`clients`, `stalled` and `slow` do not apply), each setting its room up.
    public var rooms: RoomPlan?
    /// With `rooms`: add the cells without keeping them moving, wait until each room has
    /// settled, then leave it (`settle()`); `seconds` is the longest wait.
    public var settle = false
    /// The server's process id, to sample its CPU and memory from /proc.
    public var serverPID: Int32?
    public var wireProtocol = WireProtocol.v1
    /// Threads, each with its own libwebsockets context, the clients are spread over.
    public var processes = 1
    /// Longest wait for every client to connect and the set-up to be sent, in seconds.
    public var connectSeconds = 30.0

    public init(url: WebSocketURL) { urls = [url] }

    /// `urls` must not be empty.
    public init(urls: [WebSocketURL]) {
        precondition(!urls.isEmpty, "at least one URL")
        self.urls = urls
    }

    /// The server of the client with run-wide index `index`.
    func url(ofClient index: Int) -> WebSocketURL { urls[index % urls.count] }

    var setUp: SetUp { SetUp(cells: cells ?? 0, keepMoving: !settle, tickRate: tickRate) }
    var readers: Int { rooms?.count ?? clients }
    var stalledClients: Int { rooms == nil ? stalled : 0 }
    var slowClients: Int { rooms == nil ? slow : 0 }

    var parts: [ShardPart] {
        ShardPlan.parts(readers: readers, slow: slowClients, stalled: stalledClients, shards: processes)
    }
}
