import CLibWebSockets
import LayoutCore
import LayoutRooms

/// `history` and `moment`: a room's past, to any role (docs/protocol.md, "History"). A room
/// stepped here answers from its history in memory; a relayed room's answer waits for its
/// history to be read from Redis (`ClusterNode`'s relayed histories), off this thread.
extension Server {
    /// The events of the room's history: a copy of it is listed here (a batch is small).
    func history(_ session: Session, before: UInt64?, count: Int, ref: String?) {
        guard let room = historyRoom(session, ref: ref) else { return }
        guard room.role.hasLayout else {
            if cluster?.history(of: room, before: before, count: count, ref: ref, into: session.mailbox) != true { notStepped(session, room, ref: ref) }
            return
        }
        let log = room.history.current
        let (events, more) = log.events(before: before, count: count)
        send(session, OutgoingMessage(HistoryMessages.history(events, more: more, from: log.oldestAt,
                                                              to: LayoutEvent.now(), ref: ref)))
    }

    /// A moment is rebuilt off this thread (`HistoryReader`), and answered when it is.
    func moment(_ session: Session, at: Int, have: UInt64?, patch: Bool, ref: String?) {
        guard let room = historyRoom(session, ref: ref) else { return }
        let request = HistoryReader.Request(at: at, have: have, patch: patch, ref: ref)
        guard room.role.hasLayout else {
            if cluster?.moment(request, of: room, into: session.mailbox, pending: session.moments) != true { notStepped(session, room, ref: ref) }
            return
        }
        historyReader.moment(request, of: room, into: session.mailbox, pending: session.moments)
    }

    /// The session's room when this server keeps history; else the client is told why.
    private func historyRoom(_ session: Session, ref: String?) -> Room? {
        let room = session.room
        if room.history.isOff {
            reject(session, ProtocolError(.unavailable, "this server keeps no history (--history-bytes or --history-seconds is 0)", ref: ref))
            return nil
        }
        return room
    }

    /// Neither stepped nor relayed here now (loading, or its owner being found after a failover).
    private func notStepped(_ session: Session, _ room: Room, ref: String?) {
        reject(session, ProtocolError(.unavailable, "room \(room.name) is neither stepped nor relayed here right now (loading, or moving between servers): ask again", ref: ref))
    }
}
