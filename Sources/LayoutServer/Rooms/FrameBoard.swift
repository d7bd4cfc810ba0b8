import Synchronization

/// One encoded frame, in the two forms a connection may need: with `ids` (first frame, or
/// the membership changed since the last frame it got) and without.
final class PublishedFrame: Sendable {
    /// Increases with every frame published, whatever the tick.
    let serial: Int
    let version: Int
    let withIDs: OutgoingMessage
    let withoutIDs: OutgoingMessage

    init(serial: Int, frame: FrameEncoder.Frame) {
        self.serial = serial
        version = frame.version
        withIDs = frame.withIDs
        withoutIDs = frame.withoutIDs
    }
}

/// The newest frame: written by the simulation thread, read by the service thread. Older
/// frames are simply replaced, which is how slow connections skip frames.
final class FrameBoard: Sendable {
    private let latest = Mutex<PublishedFrame?>(nil)

    func publish(_ frame: PublishedFrame) { latest.withLock { $0 = frame } }

    var current: PublishedFrame? { latest.withLock { $0 } }
}

/// The simulation's latest self-report, for `hello`, `stats` and `GET /stats`.
final class StatusBoard: Sendable {
    private let status = Mutex(LayoutStatus())

    func update(_ change: (inout LayoutStatus) -> Void) { status.withLock { change(&$0) } }

    var current: LayoutStatus { status.withLock { $0 } }
}
