import CLibWebSockets
import Dispatch
import EventBus

/// Connections opening and closing: hello, the first frame, joined and left.
extension Server {
    func opened(_ wsi: OpaquePointer) {
        upgraded(wsi)
        clientCounter += 1
        let client = "c\(clientCounter)"
        let mailbox = Mailbox(maxEventBacklog: config.limits.maxEventBacklog, maxBytes: config.limits.maxQueuedBytes,
                              encoder: eventMessages, alarm: overflowAlarm)
        // Read before subscribing: every event this frame depends on was published before it
        // was stored, so it is in the replay below, and the frame may follow hello at once.
        let initialFrame = frames.current
        let (subscription, replayed) = bus.subscribe(.all, replayLast: config.limits.replayBuffer) { envelope in
            mailbox.pushEvent(envelope)
        }
        mailbox.skipEvents(through: replayed.last?.seq ?? 0)
        let session = Session(wsi: wsi, client: client, peer: peerAddress(wsi), mailbox: mailbox,
                              bucket: TokenBucket(rate: config.limits.messagesPerSecond,
                                                  burst: config.limits.messageBurst, now: Self.seconds()))
        session.subscription = subscription
        sessions[wsi] = session
        let current = status.current
        if let initialFrame {
            mailbox.pushFront(initialFrame.withIDs)
            session.sentFrameSerial = initialFrame.serial
            session.sentVersion = initialFrame.version
        }
        mailbox.pushFront(OutgoingMessage(ServerMessages.hello(
            client: client, clients: sessions.count, status: current, limits: config.limits, events: replayed)))
        logger.info("\(client) connected from \(session.peer) (\(Self.clientCount(sessions.count)))")
        bus.publish(LayoutEvent(kind: .joined, by: client, tick: current.tick,
                                detail: .membership(client: client, clients: sessions.count)))
        wakeAllSessions()
    }

    func closed(_ wsi: OpaquePointer) {
        guard let session = sessions.removeValue(forKey: wsi) else { return }
        session.subscription?.cancel()
        session.subscription = nil
        logger.info("\(session.client) disconnected (\(Self.clientCount(sessions.count)))")
        bus.publish(LayoutEvent(kind: .left, by: session.client, tick: status.current.tick,
                                detail: .membership(client: session.client, clients: sessions.count)))
        wakeAllSessions()
    }

    func wakeAllSessions() {
        for session in sessions.values { lws_callback_on_writable(session.wsi) }
    }

    static func clientCount(_ count: Int) -> String { count == 1 ? "1 client" : "\(count) clients" }

    static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
