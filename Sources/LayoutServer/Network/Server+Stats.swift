import CLibWebSockets
import Dispatch

/// The once-a-second `stats` message, also served at `GET /stats`.
extension Server {
    func statsTimerFired() {
        let message = OutgoingMessage(statsJSON())
        for session in sessions.values {
            session.mailbox.setStats(message)
            lws_callback_on_writable(session.wsi)
        }
        armStatsTimer()
    }

    func statsJSON() -> [UInt8] {
        let uptime = Int((DispatchTime.now().uptimeNanoseconds - startedAt.uptimeNanoseconds) / 1_000_000_000)
        return ServerMessages.stats(status.current, clients: sessions.count,
                                    connections: connections.openCount, uptimeSeconds: uptime)
    }
}
