import CLibWebSockets
import Dispatch
import EventBus
import LayoutCore
import LayoutRooms

/// Connections opening and closing: hello, the first frame, joined and left, in their room.
extension Server {
    func opened(_ wsi: OpaquePointer) -> Int32 {
        upgraded(wsi)
        guard let joined = joining.removeValue(forKey: wsi) else { return -1 }
        let room = joined.room
        let number = clientNumbers.take()
        // In a cluster the server's name makes the id unique across servers.
        let client = cluster.map { "c\(number)@\($0.name)" } ?? "c\(number)"
        let mailbox = Mailbox(maxEventBacklog: config.limits.maxEventBacklog, maxBytes: config.limits.maxQueuedBytes,
                              encoder: room.eventMessages, alarm: overflowAlarm)
        let binary = Subprotocol(wsi: wsi) == .v2
        let session = Session(wsi: wsi, client: client, room: room, binaryFrames: binary, peer: peerAddress(wsi),
                              mailbox: mailbox,
                              bucket: TokenBucket(rate: config.limits.messagesPerSecond,
                                                  burst: config.limits.messageBurst, now: Uptime.seconds()),
                              life: ConnectionLife(roomReady: room.isReady, now: Uptime.seconds()),
                              credential: joined.credential)
        session.pendingOwner = joined.creator
        session.batching = joined.batches
        sessions.insert(session)
        if !binary { room.textReaders.add(1, ordering: .relaxed) }
        SocketQueue.reportWritableWhenSent(lws_get_socket_fd(wsi))
        fitSendBuffer(session, to: 0)
        if session.life.awaitingSince == nil {
            greet(session)
        } else {
            // A room of the cluster whose owner is being found, or whose mirror is catching up.
            logger.info("\(client) connected from \(session.peer) to room \(room.name): waiting for the room")
        }
        return 0
    }

    /// The opening of a connection whose room is ready: hello, the first frame, the room's data,
    /// and its `joined` event for everyone.
    func greet(_ session: Session) {
        let room = session.room, mailbox = session.mailbox, client = session.client
        guard let standing = admitToRoom(session) else { return }
        _ = session.life.greet()
        // Read before subscribing: every event this frame depends on was published before it
        // was stored, so it is in the replay below, and the frame may follow hello at once.
        let initialFrame = room.frames.current
        let (subscription, replayed) = room.bus.subscribe(.all, replayLast: config.limits.replayBuffer) { envelope in
            mailbox.pushEvent(envelope)
        }
        let openedThrough = room.bus.nextSeq - 1
        mailbox.skipEvents(through: replayed.last?.seq ?? 0)
        session.subscription = subscription
        // Who points where: in hello, every change after it as a `pointer` message.
        let pointers = room.pointers.join(mailbox)
        let current = room.reportedStatus
        let route = host.route(of: room, linked: clusterLinked)
        let clients = route.clientsInHello
        // A relay's frame may lack the text form a v1 joiner needs: it gets the next one that has it.
        if let initialFrame, let frame = initialFrame.message(binary: session.binaryFrames, membership: true) {
            fitSendBuffer(session, to: frame.count)
            mailbox.pushFront(frame)
            session.sentFrameSerial = initialFrame.serial
            session.sentVersion = initialFrame.version
        }
        mailbox.pushFront(OutgoingMessage(ServerMessages.hello(
            client: client, room: room.name, clients: clients, standing: standing, status: current, limits: config.limits,
            events: replayed, pointers: pointers)))
        logger.info("\(client) connected from \(session.peer) to room \(room.name) as \(standing.role.rawValue) (\(Self.clientCount(clients)) there, \(sessions.count) in all)")
        route.joined(client, mailbox: mailbox, through: openedThrough, readsText: !session.binaryFrames)
        wakeMembers(of: room.name)
    }

    /// The connection is gone: forget it, and tell its room.
    func closed(_ wsi: OpaquePointer) -> Int32 {
        guard let session = sessions.remove(wsi) else { return 0 }
        metrics.closed(status: session.closeStatus)
        let room = session.room
        if !session.binaryFrames { room.textReaders.subtract(1, ordering: .relaxed) }
        session.subscription?.cancel()
        session.subscription = nil
        room.pointers.leave(session.mailbox)
        host.left(room, now: Uptime.seconds())
        let clients = host.clients(of: room.name)
        logger.info("\(session.client) disconnected from room \(room.name) (\(Self.clientCount(clients)) there, \(sessions.count) in all)")
        guard session.life.closed() else { return 0 }  // never greeted: nobody heard of it
        host.route(of: room, linked: clusterLinked).left(session.client, mailbox: session.mailbox)
        wakeMembers(of: room.name)
        return 0
    }

    func wakeMembers(of name: RoomName) {
        for session in sessions.members(of: name) { lws_callback_on_writable(session.wsi) }
    }

    static func clientCount(_ count: Int) -> String { count == 1 ? "1 client" : "\(count) clients" }

}
