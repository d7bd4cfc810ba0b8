import CLibWebSockets
import LayoutCore
import LayoutRooms

/// `history` and `moment`: a room's past, to any role (docs/protocol.md, "History").
extension Server {
    /// The events of the room's history: a copy of it is listed here (a batch is small).
    func history(_ session: Session, before: UInt64?, count: Int, ref: String?) {
        guard let room = historyRoom(session, ref: ref) else { return }
        let log = room.history.current
        let (events, more) = log.events(before: before, count: count)
        send(session, OutgoingMessage(HistoryMessages.history(events, more: more, from: log.oldestAt,
                                                              to: LayoutEvent.now(), ref: ref)))
    }

    /// A moment is rebuilt off this thread (`HistoryReader`), and answered when it is.
    func moment(_ session: Session, at: Int, have: UInt64?, ref: String?) {
        guard let room = historyRoom(session, ref: ref) else { return }
        historyReader.moment(.init(at: at, have: have, ref: ref), of: room, into: session.mailbox, pending: session.moments)
    }

    /// The session's room when this server keeps its history; else the client is told why.
    private func historyRoom(_ session: Session, ref: String?) -> Room? {
        let room = session.room
        if room.history.isOff {
            reject(session, ProtocolError(.unavailable, "this server keeps no history (--history-bytes or --history-seconds is 0)", ref: ref))
            return nil
        }
        guard room.role.hasLayout else {
            reject(session, ProtocolError(.unavailable, "room \(room.name)'s history is kept by the server that steps it, not this one (a cluster's history is not shared yet)", ref: ref))
            return nil
        }
        return room
    }
}
