/// What one load client saw during the measured window.
public struct LoadTally: Sendable {
    public var stalled: Bool
    public var connected = false
    public var frames = 0
    public var bytes = 0
    /// Receive time minus the frame's `at`, in ms.
    public var latenciesMs: [Double] = []
    /// `error` messages received.
    public var errors = 0
    /// Close status when the server closed the connection (nil: still open, or never opened).
    public var closedWith: Int?
    public var connectFailed = false

    public init(stalled: Bool) { self.stalled = stalled }
}
