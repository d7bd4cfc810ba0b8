import CLibWebSockets
import LayoutCore
import LayoutRooms

/// What the cluster's threads report (`ClusterNotice`), acted on by the service thread.
extension Server {
    /// How long a connection waits for its room to be claimed or mirrored before it is closed
    /// with 1013 (try again later).
    static let roomWaitSeconds = 10.0
    /// RFC 6455's 1012 (service restart) and 1013 (try again later), which lws 4.1 does not name.
    static let serviceRestart = lws_close_status(rawValue: 1012)
    static let tryAgainLater = lws_close_status(rawValue: 1013)

    func clusterNoticesArrived() {
        guard let cluster else { return }
        for notice in cluster.notices.take() {
            switch notice {
            case .won(let name, let claim):
                let here = sessions.members(of: name).filter(\.life.isGreeted)
                let served = cluster.won(name, claim, in: host, members: here.map { ($0.client, !$0.binaryFrames) })
                if served {
                    greetWaiting(in: name)
                } else {
                    closeMembers(of: name, Self.tryAgainLater, "room \(name) cannot be served (see the server log)")
                }
            case .adopt(let name, let access):
                cluster.adopt(name, access: access, in: host, now: Uptime.seconds())
            case .reacquired(let name):
                cluster.reacquired(name, in: host)
            case .lost(let name):
                guard let room = cluster.lost(name, in: host) else { continue }
                closeMembers(of: name, Self.serviceRestart, "room \(name) moved to another server: reconnect") {
                    $0.room === room
                }
            case .live(let name):
                greetWaiting(in: name)
            case .gap(let name):
                logger.warning("room \(name): events missed from its owner; its clients here reconnect")
                closeMembers(of: name, Self.serviceRestart, "room \(name) resynchronising: reconnect")
            case .reply(let client, let message):
                guard let session = sessions.session(of: client) else { continue }
                session.mailbox.push(OutgoingMessage(message))
                lws_callback_on_writable(session.wsi)
            case .link(let up):
                linkChanged(up)
            }
        }
    }

    func greetWaiting(in name: RoomName) {
        for session in sessions.members(of: name) where session.life.mayBeGreeted {
            greet(session)
        }
    }

    /// The room's connections here (those `only` admits) are closed once what is queued for
    /// them is sent.
    func closeMembers(of name: RoomName, _ status: lws_close_status, _ reason: String,
                              only: (Session) -> Bool = { _ in true }) {
        for session in sessions.members(of: name) where !session.life.isClosing && only(session) {
            requestClose(session, status, reason, graceSeconds: 2, afterQueued: true)
        }
    }

    /// Redis lost or back: relayed rooms' clients are told once per change.
    private func linkChanged(_ up: Bool) {
        guard up != clusterLinked else { return }
        clusterLinked = up
        logger.warning(up ? "cluster: Redis reachable again" : "cluster: Redis unreachable; rooms stepped here go on, relayed rooms pause")
        guard !up else { return }
        let error = OutgoingMessage(ServerMessages.error(ProtocolError(
            .clusterUnavailable, "this server lost Redis: the room is stepped by another server, so it pauses here until Redis is back")))
        for session in sessions.all where session.room.mirror != nil && session.life.isGreeted {
            session.mailbox.push(error)
            lws_callback_on_writable(session.wsi)
        }
    }

    /// Once a second: connections whose room did not become ready in time are closed.
    func closeLongWaits(now: Double) {
        for session in sessions.all {
            guard let since = session.life.awaitingSince, now - since > Self.roomWaitSeconds,
                  session.room.role.isPending || session.room.mirror != nil else { continue }  // a load ends on its own
            logger.info("\(session.client): room \(session.room.name) not ready in \(Int(Self.roomWaitSeconds)) s (Redis or its owner unreachable): closing with 1013")
            requestClose(session, Self.tryAgainLater, "room \(session.room.name) unavailable: try again",
                         graceSeconds: 2)
        }
    }
}
