import CLibWebSockets
import Dispatch
import ForceLayout
import LayoutCore
import LayoutRooms

/// Receiving and sending on WebSocket connections (service thread).
extension Server {
    func received(_ session: Session, input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        // Closing: whatever still arrives is read and dropped (lws keeps parsing the frames).
        guard !session.life.isClosing else { return 0 }
        if !session.receiving {
            session.receiving = true
            session.receivingBinary = lws_frame_is_binary(session.wsi) != 0
            session.received.removeAll(keepingCapacity: session.received.capacity <= 4096)
        }
        guard session.received.count + length <= config.limits.maxMessageBytes else {
            logger.info("\(session.client) sent a message over \(config.limits.maxMessageBytes) bytes: closing with 1009")
            session.received = []
            requestClose(session, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, "message over \(config.limits.maxMessageBytes) bytes",
                         graceSeconds: 5, afterQueued: true)
            return 0
        }
        if let input, length > 0 {
            session.received.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        guard lws_is_final_fragment(session.wsi) != 0, lws_remaining_packet_payload(session.wsi) == 0 else { return 0 }
        session.receiving = false
        handleMessage(session, binary: session.receivingBinary)
        return 0
    }

    private func handleMessage(_ session: Session, binary: Bool) {
        // A connection being closed (too slow, shutting down) is not answered any more.
        guard !session.life.isClosing, !session.mailbox.overflowed else { return }
        guard session.bucket.take(now: Uptime.seconds()) else {
            metrics.received(type: nil)
            reject(session, ProtocolError(.rateLimited, "more than \(Int(config.limits.messagesPerSecond)) messages a second (burst \(Int(config.limits.messageBurst)))"))
            return
        }
        guard !binary else {
            metrics.received(type: nil)
            reject(session, ProtocolError(.badJSON, "binary frames are not accepted: send JSON as text"))
            return
        }
        let decoded = decoder.decode(session.received)
        metrics.received(type: try? decoded.get().message.kindName)
        switch decoded {
        case .failure(let error):
            reject(session, error)
        case .success(let request):
            let required = request.message.requiredRole
            if request.message.needsRoom, session.standing == nil {
                // A room still being loaded, claimed or mirrored: who may change it is not known yet.
                reject(session, ProtocolError(.unavailable, "room \(session.room.name) is not ready yet: wait for hello", ref: request.ref))
                return
            }
            if let role = session.standing?.role, role < required {
                reject(session, request.message.refusal(to: role, ref: request.ref))
                return
            }
            switch request.message {
            case .layout(let command):
                submit(session, command, ref: request.ref, bytes: session.received)
            case .setAccess, .rotate, .deleteRoom:
                changeAccess(session, request.message, ref: request.ref, bytes: session.received)
            case .subscribe(let selection):
                session.subscription?.setFilter(selection.filter)
            case .replay(let count, let kinds):
                send(session, OutgoingMessage(ServerMessages.replay(session.room.bus.replay(last: count, kinds.filter))))
            case .history(let before, let count):
                history(session, before: before, count: count, ref: request.ref)
            case .moment(let at, let have, let patch):
                moment(session, at: at, have: have, patch: patch, ref: request.ref)
            }
        }
    }

    /// A command to the room: stepped here, or by another server (the message goes to it as it
    /// came): `RoomRoute`.
    func submit(_ session: Session, _ command: LayoutCommand, ref: String?, bytes: [UInt8]) {
        let mailbox = session.mailbox
        let room = session.room
        let queued = QueuedCommand(command: command, client: session.client, ref: ref) { message in
            mailbox.push(OutgoingMessage(message))
            room.announce()
        }
        if let error = host.route(of: room, linked: clusterLinked).submit(queued, message: bytes, role: session.standing?.role ?? .viewer) {
            reject(session, error)
        }
    }

    func reject(_ session: Session, _ error: ProtocolError) {
        logger.info("rejected message from \(session.client): \(error.code.rawValue): \(error.message)")
        metrics.refused(error.code)
        send(session, OutgoingMessage(ServerMessages.error(error)))
    }

    /// Queues a reply on the service thread; one that overflows the mailbox closes the connection.
    func send(_ session: Session, _ message: OutgoingMessage) {
        session.mailbox.push(message)
        closeIfOverflowed(session)
        lws_callback_on_writable(session.wsi)
    }

    /// One write per WRITEABLE, as the connection's life says (`ConnectionLife.writable`):
    /// queued messages first (events, replies, stats), then the newest frame if this
    /// connection has not had it (before `joined` and `left` events and stats, which no
    /// frame depends on); or, closing, what is queued before the close, then the close. A
    /// connection that asked for batches gets the text messages waiting together, as one.
    ///
    /// After the close frame lws may still call WRITEABLE while it waits for the client's;
    /// closing again then would hang up at once, and the kernel would throw away the close
    /// frame if the client had not read it yet: the life says `nothing` then. Nothing goes
    /// before hello either (a close may).
    func writable(_ session: Session) -> Int32 {
        let message: OutgoingMessage
        var isFrame = false
        let newest = session.room.frames.current
        switch session.life.writable(mailboxEmpty: session.mailbox.isEmpty) {
        case .nothing:
            return 0
        case .close(let status, let reason):
            return setUpClose(session, status, reason)
        case .queuedOnly:
            guard let queued = session.mailbox.pop(batching: session.batching) else { return 0 }
            message = queued
        case .queuedThenFrame:
            let frameDue = newest.flatMap { $0.serial > session.sentFrameSerial ? $0 : nil }
            // A frame goes first when nothing queued is one it must follow (`framesMayPass`).
            if let frameDue, session.mailbox.framesMayPass {
                if let next = frameToSend(session, frameDue) {
                    message = next
                    isFrame = true
                } else if let queued = session.mailbox.pop(batching: session.batching) {
                    message = queued  // the frame waits (it asked to be woken); these need not
                } else {
                    return 0
                }
            } else if let queued = session.mailbox.pop(batching: session.batching) {
                message = queued
            } else {
                return 0
            }
        }
        session.inFlight = message
        let written = lws_write(session.wsi, message.payload, message.count,
                                message.isBinary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT)
        guard written >= 0 else { return -1 }
        metrics.wrote(message.isBinary ? .binary : .text, bytes: message.count, frame: isFrame)
        if !session.mailbox.isEmpty || (newest?.serial ?? 0) > session.sentFrameSerial || session.life.closeRequest != nil {
            lws_callback_on_writable(session.wsi)
        }
        return 0
    }

    /// `frame` in this connection's form, if it goes now; nil if it waits, having asked to
    /// be woken: for the previous bytes to leave (a frame behind them would reach the reader
    /// late; the socket reports itself writable once they have, `SocketQueue`), or for a
    /// slow reader to get through what it has (`PeerPacing`; the timer looks again). A v1
    /// connection of a relay waits, unwoken, for a frame that has the text form: the owner
    /// publishes one when it hears of it (`RelayRequest.joined`), which wakes the room's
    /// connections.
    private func frameToSend(_ session: Session, _ frame: PublishedFrame) -> OutgoingMessage? {
        guard let message = frame.message(binary: session.binaryFrames, membership: frame.version != session.sentVersion) else {
            return nil
        }
        let socket = lws_get_socket_fd(session.wsi)
        let sending = SocketQueue.sending(socket)
        guard sending.unsent == 0 else {
            lws_callback_on_writable(session.wsi)
            return nil
        }
        let ready = session.pacing.frameReady(window: sending.peerWindow,
                                              unacknowledged: SocketQueue.unacknowledgedBytes(socket),
                                              now: DispatchTime.now().uptimeNanoseconds,
                                              publishedAt: frame.publishedAt, nextDue: frame.nextDue)
        guard ready == .send else {
            lws_set_timer_usecs(session.wsi, lws_usec_t(PeerPacing.pollMicroseconds))
            return nil
        }
        fitSendBuffer(session, to: message.count)
        // Frames published since the last one it was sent, which it will never get.
        if session.sentFrameSerial > 0, frame.serial > session.sentFrameSerial + 1 {
            metrics.framesSkipped.increment(by: frame.serial - session.sentFrameSerial - 1)
        }
        session.sentFrameSerial = frame.serial
        session.sentVersion = frame.version
        return message
    }

    /// Caps the socket's send buffer near two frames, growing it with the frames.
    func fitSendBuffer(_ session: Session, to frameBytes: Int) {
        let size = SocketQueue.bufferSize(forMessagesOf: frameBytes)
        guard size > session.sendBuffer else { return }
        SocketQueue.setSendBuffer(lws_get_socket_fd(session.wsi), bytes: size)
        session.sendBuffer = size
    }

    /// A connection whose mailbox overflowed (more undelivered events than the backlog allows,
    /// or more bytes than its budget) is closed with 1008 as soon as it is seen (on the wake
    /// after the overflow), not at its next write: a reader that has stopped never gets one.
    /// Its close frame goes out when the socket drains; if it does not within 5 s, the
    /// connection is dropped.
    func closeSessionsTooFarBehind() {
        for session in sessions.all { closeIfOverflowed(session) }
    }

    private func closeIfOverflowed(_ session: Session) {
        guard !session.life.isClosing, let overflow = session.mailbox.overflow else { return }
        switch overflow {
        case .events(let count):
            logger.info("\(session.client) fell \(count) events behind: closing with 1008")
        case .bytes(let count):
            logger.info("\(session.client) had over \(count) bytes waiting (--max-queued-bytes): closing with 1008")
        }
        requestClose(session, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too slow", graceSeconds: 5)
    }

    /// Closes with `status` at the connection's next write; if its socket does not drain
    /// within `graceSeconds` (a peer that stopped reading), libwebsockets drops it.
    ///
    /// Not `close` from RECEIVE: that makes lws drop the rest of the bytes it has read, so its
    /// parser falls out of step with the frames a client keeps sending, and the next bad
    /// "header" kills the connection before the close frame is written; and with output still
    /// buffered, lws flushes it and hangs up without any close frame (core-net/close.c). At
    /// WRITEABLE nothing is buffered, and lws reads on in step until the client's close.
    /// With `afterQueued`, the answers already queued for it are written first (within the same
    /// grace).
    func requestClose(_ session: Session, _ status: lws_close_status, _ reason: String, graceSeconds: Int32,
                      afterQueued: Bool = false) {
        let request = ConnectionLife.CloseRequest(status: status.rawValue, reason: reason, afterQueued: afterQueued)
        guard session.life.requestClose(request) == .armAndWake else { return }
        lws_set_timeout(session.wsi, PENDING_TIMEOUT_USER_OK, graceSeconds)
        lws_callback_on_writable(session.wsi)
    }

    /// Sets up the close frame the connection's life decided on; the caller returns the -1 to
    /// lws, which then sends it.
    func setUpClose(_ session: Session, _ status: UInt32, _ reason: String) -> Int32 {
        session.closeStatus = UInt16(truncatingIfNeeded: status)
        var bytes = Array(reason.utf8.prefix(120))
        lws_close_reason(session.wsi, lws_close_status(rawValue: status), &bytes, bytes.count)
        return -1
    }
}
