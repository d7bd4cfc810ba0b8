import Dispatch
import LayoutCore
import LayoutRooms

/// A cluster room's history (docs/cluster.md, "History"): its owner writes it to a Redis stream
/// (`RedisHistoryStream`, the sink of every cluster room's `RoomHistory`), a server taking the
/// room over reads it back before its first turn, and relays read it for their clients'
/// `history` and `moment` (`RelayedHistory`).
extension ClusterNode {
    /// Where a cluster room's history is kept beside memory: its stream. Every room made here
    /// gets one; only the lease holder's writes reach the stream (they are fenced).
    package func historySink(for room: RoomName) -> (any HistorySink)? {
        RedisHistoryStream(room: room, node: name, redis: historyRedis, logger: logger)
    }

    /// This server took the lease of `room` (before the service thread installs it, off every
    /// thread that serves): a room with a state goes on from its stream's history, its event
    /// numbering after the history's last event; a new room's history starts empty, whatever
    /// an older room of its name left.
    func loadHistory(of room: Room, state: Result<SavedState?, StateFile.Failure>?) {
        guard !room.history.isOff else { return }
        switch state {
        case .success(let saved?) where !saved.access.deleted:
            if let last = room.history.load() {
                room.bus.skip(through: last)
                logger.info("room \(room.name): its history read from Redis (\(room.history.current.segmentCount) segments, \(room.history.current.bytes) bytes)")
            }
        case .success:
            let keys = ClusterKeys(room.name)
            historyRedis.submit(.init([RedisCommand.fenced(lease: keys.lease, holder: name,
                                                           [RedisCommand.words("DEL", keys.history)])]))
        case .failure, nil:
            break  // not served here: nothing changes
        }
    }

    /// The room this server relays under `name`, if any.
    func relayedRoom(_ name: RoomName) -> Room? {
        if case .relay(let mirror)? = state.withLock({ $0.routes[name] }) { return mirror.room }
        return nil
    }

    /// The relayed room's history as its stream holds it now, to `answer` on `historyQueue`;
    /// false when `room` is not relayed here (its owner is not known yet).
    private func readRelayedHistory(of room: Room, _ answer: @escaping RelayedHistory.Answer) -> Bool {
        guard case .relay(let mirror)? = state.withLock({ $0.routes[room.name] }), mirror.room === room else { return false }
        let identity = ObjectIdentifier(mirror)
        let history = relayedHistories.history(of: room.name, mirror: identity) {
            RelayedHistory(room: room.name, mirror: identity, bounds: room.history.bounds, redis: historyRedis, queue: historyQueue)
        }
        history.read(answer)
        return true
    }

    /// A `history` asked of a relayed room: answered into `mailbox` once its stream was read.
    /// False: the room is not relayed here.
    package func history(of room: Room, before: UInt64?, count: Int, ref: String?, into mailbox: Mailbox) -> Bool {
        readRelayedHistory(of: room) { outcome in
            let bytes = switch outcome {
            case .success(let log):
                Self.history(log, before: before, count: count, ref: ref)
            case .failure(let failure):
                Self.unreadable(failure, of: room, ref: ref)
            }
            mailbox.push(OutgoingMessage(bytes))
            room.announce()
        }
    }

    /// A `moment` asked of a relayed room: rebuilt once its stream was read, unless a newer
    /// request of the connection replaces it first (`PendingMoments`, as `HistoryReader`).
    /// False: the room is not relayed here.
    package func moment(_ request: HistoryReader.Request, of room: Room, into mailbox: Mailbox, pending: PendingMoments) -> Bool {
        guard case .relay? = state.withLock({ $0.routes[room.name] }) else { return false }
        guard pending.submit(request) else { return true }
        answerMoment(request, of: room, into: mailbox, pending: pending)
        return true
    }

    private func answerMoment(_ request: HistoryReader.Request, of room: Room, into mailbox: Mailbox, pending: PendingMoments) {
        let reading = readRelayedHistory(of: room) { [self] outcome in
            let bytes = switch outcome {
            case .success(let log):
                log.moment(at: request.at).map { HistoryMessages.moment($0, have: request.have, ref: request.ref) }
                    ?? ServerMessages.error(ProtocolError(.unavailable, "the room has no history yet", ref: request.ref))
            case .failure(let failure):
                Self.unreadable(failure, of: room, ref: request.ref)
            }
            mailbox.push(OutgoingMessage(bytes))
            room.announce()
            if let next = pending.finished() { answerMoment(next, of: room, into: mailbox, pending: pending) }
        }
        // The room stopped being relayed meanwhile: the connection is told, and its next
        // request is taken.
        if !reading {
            mailbox.push(OutgoingMessage(ServerMessages.error(ProtocolError(.unavailable, "room \(room.name) moved to another server: ask again", ref: request.ref))))
            room.announce()
            if let next = pending.finished() { answerMoment(next, of: room, into: mailbox, pending: pending) }
        }
    }

    private static func history(_ log: HistoryLog, before: UInt64?, count: Int, ref: String?) -> [UInt8] {
        let (events, more) = log.events(before: before, count: count)
        return HistoryMessages.history(events, more: more, from: log.oldestAt, to: LayoutEvent.now(), ref: ref)
    }

    private static func unreadable(_ failure: RelayedHistory.Failure, of room: Room, ref: String?) -> [UInt8] {
        ServerMessages.error(ProtocolError(.clusterUnavailable, "room \(room.name)'s history could not be read from Redis (\(failure.description)): try again", ref: ref))
    }
}
