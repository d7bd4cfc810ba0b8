import CLibWebSockets
import LayoutCore
import LayoutRooms

/// Who may be in a room and do what: a connection's role decided before its `hello`, judged
/// again whenever the room's access changes, and the owner's `access` and `rotate` messages.
extension Server {
    /// The link a request brings in its headers (`HandshakeKey`): `Authorization`, and for a
    /// WebSocket handshake its subprotocol offer too.
    func credential(_ wsi: OpaquePointer, handshake: Bool) -> Credential {
        HandshakeKey.credential(offer: handshake ? header(wsi, WSI_TOKEN_PROTOCOL) : nil,
                                authorization: header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION), admin: config.adminToken)
    }

    /// The connection's standing in its room, now that the room is ready; nil when the room's
    /// access does not let it in (it is then being closed, with the status that says why).
    func admitToRoom(_ session: Session) -> Standing? {
        let (access, version) = session.room.access.current
        session.accessVersion = version
        adoptPendingOwner(session, access)
        switch access.admit(session.credential) {
        case .admitted(let role):
            let standing = standing(of: session, role: role, in: access)
            session.standing = standing
            return standing
        case .refused(let refusal):
            refuse(session, refusal, rotated: false)
            return nil
        }
    }

    /// A room's connections (`members`) once its access changed: each that had its `hello` is
    /// judged again. One whose link was rotated, or who may no longer be in the room, is closed;
    /// one whose role or links changed is told (`role`). Called on every wake for each room that
    /// published something (a frame, mostly): the room's board is read once, and a connection is
    /// looked at only when the board's version moved past the one it was judged by.
    func recheckAccess(of members: [Session]) {
        guard let room = members.first?.room else { return }
        let name = room.name
        let (access, version) = room.access.current
        for session in members {
            guard let before = session.standing, !session.life.isClosing, version != session.accessVersion else { continue }
            session.accessVersion = version
            adoptPendingOwner(session, access)
            switch access.admit(session.credential) {
            case .admitted(let role):
                let standing = standing(of: session, role: role, in: access)
                guard standing != before else { continue }
                session.standing = standing
                if standing.role != before.role {
                    logger.info("\(session.client) in room \(name) is \(standing.role.rawValue) now (access \(access.mode.rawValue))")
                }
                send(session, OutgoingMessage(ServerMessages.role(standing)))
            case .refused(let refusal):
                refuse(session, refusal, rotated: true)
            }
        }
    }

    /// The owner's secret the connection was given, once the room's access holds it.
    private func adoptPendingOwner(_ session: Session, _ access: RoomAccess) {
        guard let owner = session.pendingOwner, access.links?.owner.matches(owner.digest) == true else { return }
        session.credential = .key(owner)
        session.pendingOwner = nil
    }

    /// The role `role` as this connection is told it, with the links its own link spells out
    /// (an owner's: all three; an edit link's: the edit and view links).
    private func standing(of session: Session, role: Role, in access: RoomAccess) -> Standing {
        let links = session.credential.secret.flatMap { access.links?.secrets(from: $0) }
        return Standing(role: role, access: access.mode, links: links)
    }

    /// Closes a connection its room does not let in. `rotated`: it was in, with the link it
    /// still holds, until the owner changed the room's access.
    private func refuse(_ session: Session, _ refusal: RoomAccess.Refusal, rotated: Bool) {
        let room = session.room.name
        let (status, reason) = AccessClose.closing(refusal, room: room, broughtKey: session.credential != .none, wasIn: rotated)
        logger.info("\(session.client) from \(session.peer) \(rotated ? "no longer let into" : "not let into") room \(room): \(reason) (closing with \(status))")
        // What was queued for it first (the `access` or `deleted` event that says why).
        requestClose(session, lws_close_status(rawValue: status), reason, graceSeconds: 5, afterQueued: true)
    }

    /// An owner's `access` or `rotate`: the change goes to the room's layout, which publishes
    /// it (an `access` event) and keeps it; the room's connections are judged again then.
    func changeAccess(_ session: Session, _ message: ClientMessage, ref: String?, bytes: [UInt8]) {
        let change: AccessChange
        switch message {
        case .setAccess(let mode):
            change = .mode(mode)
        case .deleteRoom:
            change = .delete
        case .rotate(let kinds):
            let current = session.room.access.current.access.links
            let rotation = LinkDigests.rotating(kinds, of: current, ownerSecret: session.credential.secret)
            if rotation.owner != session.credential.secret { session.pendingOwner = rotation.owner }
            change = .links(rotation.digests)
        default:
            return
        }
        submit(session, .access(change), ref: ref, bytes: bytes)
    }
}
