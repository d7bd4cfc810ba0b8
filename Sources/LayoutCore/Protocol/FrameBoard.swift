import Synchronization

/// One frame, encoded in the forms a connection may need: JSON text (v1) or binary (v2),
/// each with the membership (first frame, or the membership changed since the last frame it
/// got) and without. The text forms may be written only when a v1 client first asks (`TextFrame`).
package final class PublishedFrame: Sendable {
    /// Increases with every frame published, whatever the tick.
    package let serial: Int
    package let version: Int
    package let text: TextFrame
    let binaryWithIDs: OutgoingMessage
    package let binaryWithoutIDs: OutgoingMessage
    /// When it was published, and when the next frame is due (nil: the room stopped
    /// stepping), in monotonic nanoseconds (`PeerPacing`).
    package let publishedAt: UInt64
    package let nextDue: UInt64?

    package init(serial: Int, text: TextFrame, binary: FrameEncoder.Frame, publishedAt: UInt64, nextDue: UInt64?) {
        self.serial = serial
        self.publishedAt = publishedAt
        self.nextDue = nextDue
        self.text = text
        version = binary.version
        binaryWithIDs = binary.withIDs
        binaryWithoutIDs = binary.withoutIDs
    }

    /// The text forms (nil: a relay's frame without them, `TextFrame.absent`).
    var withIDs: OutgoingMessage? { text.frame?.withIDs }
    package var withoutIDs: OutgoingMessage? { text.frame?.withoutIDs }

    /// The form for a connection of that protocol, with or without the membership; nil for a
    /// v1 connection when this frame has no text (it waits for one that has).
    package func message(binary: Bool, membership: Bool) -> OutgoingMessage? {
        switch (binary, membership) {
        case (false, true): withIDs
        case (false, false): withoutIDs
        case (true, true): binaryWithIDs
        case (true, false): binaryWithoutIDs
        }
    }
}

/// The newest frame: written by the simulation thread, read by the service thread. Older
/// frames are simply replaced, which is how slow connections skip frames.
package final class FrameBoard: Sendable {
    package init() {}

    private let latest = Mutex<PublishedFrame?>(nil)

    package func publish(_ frame: PublishedFrame) { latest.withLock { $0 = frame } }

    package var current: PublishedFrame? { latest.withLock { $0 } }
}

/// The simulation's latest self-report, for `hello`, `stats` and `GET /stats`.
package final class StatusBoard: Sendable {
    package init() {}

    private let status = Mutex(LayoutStatus())

    package func update(_ change: (inout LayoutStatus) -> Void) { status.withLock { change(&$0) } }

    package var current: LayoutStatus { status.withLock { $0 } }
}
