import CLibWebSockets
import Dispatch
import LayoutCore
import LayoutRooms

/// The once-a-second `stats` message (about each connection's room), `GET /stats` (about
/// room `main`) and `GET /rooms`.
extension Server {
    func statsTimerFired() {
        for members in sessions.rooms.values {
            guard let room = members.first?.value.room else { continue }
            let message = OutgoingMessage(statsJSON(for: room))
            for session in members.values {
                session.mailbox.setStats(message)
                lws_callback_on_writable(session.wsi)
            }
        }
        armStatsTimer()
    }

    /// The figures of `room` (nil: room `main`, as it is in memory or as a fresh room would
    /// be; `hidingMain`: as a fresh room would be, it is private) and of the whole server.
    func statsJSON(for room: Room?, hidingMain: Bool = false) -> [UInt8] {
        let room = room ?? (hidingMain ? nil : host.rooms[.main])
        let server = ServerMessages.ServerFigures(
            clients: sessions.count, connections: connections.openCount, rooms: host.rooms.count,
            cells: host.budget.total, uptimeSeconds: uptimeSeconds, residentMB: ProcessMemory.residentMB)
        return ServerMessages.stats(room?.reportedStatus ?? LayoutStatus(), room: room?.name ?? .main,
                                    clients: room.map { host.clients(of: $0.name) } ?? 0, server: server,
                                    cluster: cluster.map { ($0.name, $0.view) })
    }

    /// The rooms in memory here; in a cluster, every room stepped anywhere, once, with its
    /// server (this server's own as they are now, even before its first summary came back or
    /// while Redis is away; rooms it only relays are the other servers' to list).
    /// Private rooms only to the admin (`credential`).
    func roomsJSON(for credential: Credential) -> [UInt8] {
        if let cluster {
            let mine = cluster.summary(of: host, clients: sessions.count, uptimeSeconds: uptimeSeconds)
            return ServerMessages.rooms(cluster: cluster.view.replacing(mine)) { RoomAccess(mode: $0).isListed(to: credential) }
        }
        return ServerMessages.rooms(host.listing { $0.isListed(to: credential) }.map {
            ($0.room.name, $0.clients, $0.room.status.current, $0.room.access.current.access.mode)
        })
    }

    var uptimeSeconds: Int { Int((DispatchTime.now().uptimeNanoseconds - startedAt.uptimeNanoseconds) / 1_000_000_000) }

    /// Once a second: what this server steps and serves, for the others.
    func reportToCluster() {
        guard let cluster else { return }
        cluster.report(cluster.summary(of: host, clients: sessions.count, uptimeSeconds: uptimeSeconds))
    }
}
