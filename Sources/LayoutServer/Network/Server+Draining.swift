import CLibWebSockets
import Dispatch
import LayoutCore
import LayoutRooms

/// Draining once a stop was asked for (SIGTERM), as `DrainPlan` says: `/readyz` and new
/// handshakes answer 503 from the start; in a cluster, clients are told to `reconnect` and
/// their rooms handed off once they have moved; then, or on a server on its own at once,
/// whoever is left is closed with 1012, which the page takes as "reconnect now". The loop
/// (`run`) ends once every client is gone and every hand-off done, or at `--drain-seconds`.
extension Server {
    func beginShutdown() {
        let now = Uptime.seconds()
        let plan = DrainPlan(now: now, drainSeconds: config.drainSeconds, inCluster: host.beginDraining())
        drain = plan
        guard let until = plan.moveDeadline else {
            logger.info("draining: /readyz answers 503; closing \(sessions.count) connection(s) with 1012 (reconnect), at most \(config.drainSeconds) s (--drain-seconds)")
            closeEveryone()
            return
        }
        let steppedHere = host.roomsSteppedHere.count
        let window = Int(((until - now) * 1000).rounded())
        logger.info("draining: /readyz answers 503; telling \(sessions.count) connection(s) to reconnect elsewhere within \(window) ms, then handing off the \(steppedHere) room(s) stepped here, at most \(config.drainSeconds) s (--drain-seconds)")
        let message = OutgoingMessage(ServerMessages.reconnect(closesInMs: window))
        for session in sessions.all {
            if session.standing == nil {
                // Still waiting for its room: nothing to keep streaming, it may as well go now.
                requestClose(session, Self.serviceRestart, "server restarting: reconnect", graceSeconds: 2)
            } else {
                send(session, message)
            }
        }
    }

    /// As the loop turns while draining: rooms whose clients have all moved are handed off;
    /// once the moving window is over, whoever is left is closed and every room handed off.
    func continueDraining() {
        guard var plan = drain, plan.inCluster else { return }
        if plan.windowEnds(now: Uptime.seconds()) {
            logger.info("draining: the moving window is over; closing \(sessions.count) connection(s) with 1012 (reconnect)")
            closeEveryone()
        }
        drain = plan
        for name in host.roomsSteppedHere where plan.handsOff(clientsHere: clientsStaying(in: name)) {
            host.handOff(name)
        }
    }

    /// Connections of room `name` here that are not closing.
    private func clientsStaying(in name: RoomName) -> Int {
        sessions.members(of: name).count { !$0.life.isClosing }
    }

    private func closeEveryone() {
        for session in sessions.all where !session.life.isClosing {
            requestClose(session, Self.serviceRestart, "server restarting: reconnect", graceSeconds: 2)
        }
    }
}
