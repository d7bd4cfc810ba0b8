import CLibWebSockets
import Dispatch
import EventBus

/// Connections opening and closing: hello, the first frame, joined and left, in their room.
extension Server {
    func opened(_ wsi: OpaquePointer) -> Int32 {
        upgraded(wsi)
        guard let room = joining.removeValue(forKey: wsi) else { return -1 }
        clientCounter += 1
        let client = "c\(clientCounter)"
        let mailbox = Mailbox(maxEventBacklog: config.limits.maxEventBacklog, maxBytes: config.limits.maxQueuedBytes,
                              encoder: room.eventMessages, alarm: overflowAlarm)
        // Read before subscribing: every event this frame depends on was published before it
        // was stored, so it is in the replay below, and the frame may follow hello at once.
        let initialFrame = room.frames.current
        let (subscription, replayed) = room.bus.subscribe(.all, replayLast: config.limits.replayBuffer) { envelope in
            mailbox.pushEvent(envelope)
        }
        mailbox.skipEvents(through: replayed.last?.seq ?? 0)
        let binary = Subprotocol(wsi: wsi) == .v2
        let session = Session(wsi: wsi, client: client, room: room, binaryFrames: binary, peer: peerAddress(wsi),
                              mailbox: mailbox,
                              bucket: TokenBucket(rate: config.limits.messagesPerSecond,
                                                  burst: config.limits.messageBurst, now: Self.seconds()))
        session.subscription = subscription
        sessions[wsi] = session
        members[room.name, default: [:]][wsi] = session
        let clients = host.clients(of: room.name)
        let current = room.status.current
        SocketQueue.reportWritableWhenSent(lws_get_socket_fd(wsi))
        fitSendBuffer(session, to: 0)
        if let initialFrame {
            let frame = initialFrame.message(binary: binary, membership: true)
            fitSendBuffer(session, to: frame.count)
            mailbox.pushFront(frame)
            session.sentFrameSerial = initialFrame.serial
            session.sentVersion = initialFrame.version
        }
        mailbox.pushFront(OutgoingMessage(ServerMessages.hello(
            client: client, room: room.name, clients: clients, status: current, limits: config.limits, events: replayed)))
        host.request(.data(mailbox), of: room)
        logger.info("\(client) connected from \(session.peer) to room \(room.name) (\(Self.clientCount(clients)) there, \(sessions.count) in all)")
        room.bus.publish(LayoutEvent(kind: .joined, by: client, tick: current.tick,
                                     detail: .membership(client: client, clients: clients)))
        wakeMembers(of: room.name)
        return 0
    }

    /// The connection is gone: forget it, and tell its room. 0, for lws.
    func closed(_ wsi: OpaquePointer) -> Int32 {
        guard let session = sessions.removeValue(forKey: wsi) else { return 0 }
        let room = session.room
        members[room.name]?[wsi] = nil
        if members[room.name]?.isEmpty == true { members[room.name] = nil }
        session.subscription?.cancel()
        session.subscription = nil
        host.left(room, now: Self.seconds())
        let clients = host.clients(of: room.name)
        logger.info("\(session.client) disconnected from room \(room.name) (\(Self.clientCount(clients)) there, \(sessions.count) in all)")
        room.bus.publish(LayoutEvent(kind: .left, by: session.client, tick: room.status.current.tick,
                                     detail: .membership(client: session.client, clients: clients)))
        wakeMembers(of: room.name)
        return 0
    }

    func wakeMembers(of name: RoomName) {
        for session in members[name]?.values ?? [:].values { lws_callback_on_writable(session.wsi) }
    }

    static func clientCount(_ count: Int) -> String { count == 1 ? "1 client" : "\(count) clients" }

    static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
