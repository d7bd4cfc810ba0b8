import CLibWebSockets
import Glibc
import LayoutCore
import LayoutRooms

/// Every connection below the layout protocol (libwebsockets' first protocol gets these):
/// admission when one is accepted, its deadline until it is a WebSocket, eviction, raw
/// refusals of what is not a GET or HEAD, and its end. The decisions are `ConnectionTable`'s.
extension Server {
    func handleConnection(wsi: OpaquePointer, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
                          input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
            // `wsi` is the listening socket's; `user` describes the accepted one. Non-zero closes it.
            guard let user else { return 1 }
            return admit(user.assumingMemoryBound(to: lws_filter_network_conn_args.self)) ? 0 : 1
        case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
            instantiated(wsi)
        case LWS_CALLBACK_WSI_DESTROY:
            destroyed(wsi)
            return 0
        case LWS_CALLBACK_RAW_ADOPT:
            rawAdopted(wsi)
            return 0
        case LWS_CALLBACK_RAW_RX:
            rawReceived(wsi, input.map { UnsafeRawBufferPointer(start: $0, count: length) })
            return 0
        case LWS_CALLBACK_RAW_WRITEABLE:
            return rawWritable(wsi)
        case LWS_CALLBACK_RAW_CLOSE:
            return 0
        default:
            break
        }
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }

    /// The admitted socket has its wsi now.
    private func instantiated(_ wsi: OpaquePointer) {
        guard let id = acceptedDescriptors.removeValue(forKey: lws_get_socket_fd(wsi)) else { return }
        connectionIDs.insert(wsi, id)
    }

    private func destroyed(_ wsi: OpaquePointer) {
        rawRefusals[wsi] = nil
        handshakeEnded(wsi)
        guard let id = connectionIDs.remove(wsi) else { return }
        connections.closed(id)
        connectionsClosedSinceSweep = true
    }

    /// libwebsockets gave up on HTTP: a CONNECT, or a method it does not know.
    private func rawAdopted(_ wsi: OpaquePointer) {
        rawRefusals[wsi] = .methodNotAllowed
        lws_callback_on_writable(wsi)
    }

    /// What it sent says whether it was HTTP at all.
    private func rawReceived(_ wsi: OpaquePointer, _ bytes: UnsafeRawBufferPointer?) {
        guard rawRefusals[wsi] != nil, let bytes else { return }
        rawRefusals[wsi] = HTTPResponse.refusal(forUnparsed: bytes)
    }

    private func rawWritable(_ wsi: OpaquePointer) -> Int32 {
        guard let refusal = rawRefusals.removeValue(forKey: wsi) else { return -1 }
        refused(wsi, refusal)
        let response = OutgoingMessage(HTTPResponse.bytes(refusal))
        _ = lws_write(wsi, response.payload, response.count, LWS_WRITE_HTTP) // LWS_WRITE_RAW is a macro for it
        return -1
    }

    /// Admits or refuses a connection libwebsockets just accepted; evicts to make room.
    private func admit(_ accepted: UnsafeMutablePointer<lws_filter_network_conn_args>) -> Bool {
        // An admitted socket whose adoption failed (lws closed it before instantiating it)
        // left its id behind: the descriptor number is back, so that connection is gone.
        if let stale = acceptedDescriptors.removeValue(forKey: accepted.pointee.accept_fd) {
            connections.closed(stale)
        }
        let address = withUnsafePointer(to: &accepted.pointee.cli_addr) { PeerAddress($0) }
            ?? PeerAddress(ipv4: [0, 0, 0, 0])
        switch connections.accept(from: address, now: Uptime.seconds()) {
        case .refuse(let refusal):
            refusals.count(refusal, from: address)
            metrics.connectionsRefused.increment()
            return false
        case .admitEvicting(let id, let evicted):
            refusals.countEviction(from: address)
            if let victim = connectionIDs[right: evicted] { kill(victim) }
            acceptedDescriptors[accepted.pointee.accept_fd] = id
        case .admit(let id):
            acceptedDescriptors[accepted.pointee.accept_fd] = id
        }
        return true
    }

    /// A complete HTTP request (or WebSocket handshake) arrived on `wsi`.
    func requestArrived(_ wsi: OpaquePointer) {
        guard let id = connectionIDs[wsi] else { return }
        connections.requestArrived(id, now: Uptime.seconds())
    }

    /// `wsi` is a WebSocket now: no deadline, never evicted.
    func upgraded(_ wsi: OpaquePointer) {
        guard let id = connectionIDs[wsi] else { return }
        connections.upgraded(id)
    }

    /// Once a second: closes the connections that are past their deadline without being
    /// WebSockets, and logs what admission refused meanwhile.
    func sweepConnections() {
        for id in connections.expire(now: Uptime.seconds()) {
            if let wsi = connectionIDs[right: id] { kill(wsi) }
        }
        if let summary = refusals.takeSummary() { logger.info("\(summary)") }
        // Give back to the system what closed connections held (a too-slow client's queue can
        // be megabytes); glibc keeps freed memory otherwise.
        if connectionsClosedSinceSweep {
            connectionsClosedSinceSweep = false
            forcelayout_malloc_trim()
        }
    }

    /// Closes `wsi` on the next service pass, at once (no lingering close).
    private func kill(_ wsi: OpaquePointer) {
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    /// Answers a request that is not a GET or HEAD with `refusal` (written raw or as HTTP).
    func refused(_ wsi: OpaquePointer, _ refusal: HTTPResponse.Refusal) {
        logger.info("answered \(refusal.status) to \(peerAddress(wsi)): \(refusal.reason)")
        if let id = connectionIDs[wsi] { connections.closing(id) }
    }

    /// Answers `refusal` on an HTTP connection and asks libwebsockets to close it (returns 1).
    func refuseHTTP(_ wsi: OpaquePointer, _ refusal: HTTPResponse.Refusal) -> Int32 {
        refused(wsi, refusal)
        let response = OutgoingMessage(HTTPResponse.bytes(refusal))
        _ = lws_write(wsi, response.payload, response.count, LWS_WRITE_HTTP_HEADERS)
        return 1
    }

    /// Whether the request on `wsi` is a GET or a HEAD (the only methods served).
    func isGetOrHead(_ wsi: OpaquePointer) -> Bool {
        lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 || lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0
    }
}
