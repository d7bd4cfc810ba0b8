/// Whether a connection's next frame should wait for its reader. A reader slower than the
/// stream fills its own receive buffer; a frame sent then queues behind the previous one's
/// tail, in flight against the reader's closed window and in its buffer, and arrives late
/// by however long the reader takes to get through that (at a quarter of the bandwidth with
/// a 2 KB buffer, about 90 ms). The kernel says both: the bytes sent but not acknowledged,
/// and the room the reader's buffer has left (its advertised window; the largest seen is
/// the buffer's size, so their difference is what it has still to read). While the bytes
/// in flight fill half its window, or what it has still to read is more than a quarter of
/// its buffer, the frame is held back and both are looked at again shortly
/// (`pollMicroseconds`); the newest frame goes as soon as the reader has caught up, and
/// reaches it fresh, unless it has aged past half its interval while the next is due: a
/// reader that was behind on its reading within the last second (slower than the stream)
/// then waits for that one, fresher by more than the wait. A reader that keeps up, over any round trip, has a wide open window
/// and never waits; and no frame is held back longer than `longestHold`, in case a window
/// shrinks for good. A value with one transition, tested without sockets; `SocketQueue`
/// reads the kernel's figures.
package struct PeerPacing {
    package init() {}

    static let longestHold: UInt64 = 150_000_000
    package static let pollMicroseconds = 5_000

    /// The largest receive window the peer advertised: its buffer's size, as far as is known.
    private(set) var largestWindow = 0
    /// When the frame being held back was first ready (monotonic nanoseconds).
    private var holdingSince: UInt64?
    /// When the reader last had more than a quarter of its buffer still to read: a reader
    /// that did within `behindFor` is slower than the stream, and gets fresh frames only.
    private var lastBehind: UInt64?
    static let behindFor: UInt64 = 1_000_000_000

    package enum Action: Equatable { case send, wait }

    /// A frame is ready and the socket has sent everything before it; `window` is the
    /// peer's advertised window now (nil when the kernel does not say), `unacknowledged`
    /// the bytes sent that the peer has not acknowledged; the frame was published at
    /// `publishedAt` and the next is due at `nextDue` (nil: none is coming).
    package mutating func frameReady(window: Int?, unacknowledged: Int, now: UInt64, publishedAt: UInt64,
                             nextDue: UInt64?) -> Action {
        guard let window else { return .send }
        largestWindow = Swift.max(largestWindow, window)
        let inFlightFillsWindow = unacknowledged > largestWindow / 2
        let stillToRead = largestWindow - window > largestWindow / 4
        if stillToRead { lastBehind = now }
        let slowReader = lastBehind.map { now &- $0 < Self.behindFor } ?? false
        let staleWhileNextIsNear = slowReader && Self.staleWhileNextIsNear(now, publishedAt, nextDue)
        if inFlightFillsWindow || stillToRead || staleWhileNextIsNear {
            let since = holdingSince ?? now
            holdingSince = since
            if now &- since < Self.longestHold { return .wait }
        }
        holdingSince = nil
        return .send
    }

    /// Past half its interval with the next frame due before it ages as much again.
    private static func staleWhileNextIsNear(_ now: UInt64, _ publishedAt: UInt64, _ nextDue: UInt64?) -> Bool {
        guard let nextDue, now >= publishedAt, now < nextDue else { return false }
        return now - publishedAt > nextDue - now
    }
}
