/// How a server drains once asked to stop (SIGTERM), as a value: the server asks it what to do.
///
/// In a cluster, a restart should be invisible to viewers, so the server moves its clients
/// before it lets go of anything (make before break, as HTTP/2's GOAWAY lets a client open its
/// next connection while the old one still serves):
///
/// 1. **Moving.** Every client is told `reconnect` (docs/protocol.md): open a new connection to
///    the same address now, where a load balancer finds a ready server (this one answers 503),
///    and close this one once the new one has its `hello`. Meanwhile this server goes on
///    stepping its rooms and sending frames, so a viewer's frames never stop. A room stepped
///    here is handed off (`RoomHost.handOff`) as soon as none of its clients is left here.
/// 2. **Closing**, once the moving window is over (`moveSeconds`, at most half of
///    `--drain-seconds`): who is still here (a client that does not know `reconnect`) is closed
///    with 1012, and every room still stepped here is handed off.
///
/// A server on its own has nowhere to send its clients: it closes them with 1012 at once, as
/// before, and saves its rooms as it stops.
package struct DrainPlan: Equatable, Sendable {
    package enum Phase: Equatable, Sendable {
        /// Clients were told to reconnect; the window ends at this time (seconds, the caller's clock).
        case moving(until: Double)
        case closing
    }

    /// The longest a drain gives clients to move: the page reconnects within 100 ms of being
    /// told, and its new connection needs a handshake and a `hello`.
    package static let moveSeconds = 2.0

    package private(set) var phase: Phase
    /// Whether there are other servers to hand rooms to.
    package let inCluster: Bool
    /// When the drain ends however far it got (`--drain-seconds` after it began).
    package let deadline: Double

    /// `now` in seconds, on the clock later calls use; `drainSeconds`: `--drain-seconds`.
    package init(now: Double, drainSeconds: Int, inCluster: Bool) {
        self.inCluster = inCluster
        deadline = now + Double(drainSeconds)
        phase = inCluster ? .moving(until: now + min(Self.moveSeconds, Double(drainSeconds) / 2)) : .closing
    }

    /// Whether the drain is over at `now`: every client gone and every hand-off done
    /// (`finished`), or the deadline passed.
    package func isOver(now: Double, finished: Bool) -> Bool {
        finished || now > deadline
    }

    /// The moving window's end, while clients are moving.
    package var moveDeadline: Double? {
        if case .moving(let until) = phase { until } else { nil }
    }

    /// Called as the loop turns: true once, when the window has just ended (close who is left,
    /// hand off every room left).
    package mutating func windowEnds(now: Double) -> Bool {
        guard case .moving(let until) = phase, now >= until else { return false }
        phase = .closing
        return true
    }

    /// Whether a room stepped here goes to another server now, with `clientsHere` of its
    /// clients still connected here (never on a server on its own: it saves its rooms).
    package func handsOff(clientsHere: Int) -> Bool {
        inCluster && (phase == .closing || clientsHere == 0)
    }
}
