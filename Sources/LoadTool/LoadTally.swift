/// What one load client saw during the measured window.
public struct LoadTally: Sendable {
    public var stalled: Bool
    /// A slow reader (`--slow`): reads at a fraction of the stream's bandwidth (the ages of
    /// the frames it got go to its shard's `FrameAges.slow`).
    public var slow = false
    public var connected = false
    public var frames = 0
    public var bytes = 0
    /// Bytes of the message being received so far.
    var messageBytes = 0
    /// The ticks of the frames it got, for its layout's steps per second.
    public var ticks = TickSpan()
    /// `error` messages received.
    public var errors = 0
    /// Close status when the server closed the connection (nil: still open, or never opened).
    public var closedWith: Int?
    public var connectFailed = false
    /// `--settle`: seconds from the start until its room settled (nil: not yet, or not asked).
    public var settledAfter: Double?
    /// `--settle`: it closed the connection itself once its room had settled.
    public var left = false

    public init(stalled: Bool, slow: Bool = false) {
        self.stalled = stalled
        self.slow = slow
    }

    /// A reader that reads everything as fast as it can.
    var reads: Bool { !stalled && !slow }
}
