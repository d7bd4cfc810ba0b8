import CLibWebSockets
import Dispatch
import Glibc
import LayoutCore
import LayoutRooms

/// Who may open a WebSocket, into which room, and what a request's headers say.
extension Server {
    /// A WebSocket handshake arrived: the place to refuse it with an HTTP status (>0: answered).
    /// An admitted one is counted in its room from here on (`joining`), until it opens or ends.
    func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        requestArrived(wsi)
        guard let refusal = admitHandshake(wsi) else { return 0 }
        logger.info("refused \(refusal.why)")
        metrics.handshakeRefused(status: refusal.status)
        _ = lws_return_http_status(wsi, refusal.status, refusal.text)
        return 1
    }

    /// Why a handshake is refused: the HTTP status, what the log says, and (400 only) a short
    /// text for the response's body, of fixed words.
    struct HandshakeRefusal {
        var status: UInt32
        var why: String
        var text: String?

        init(_ status: UInt32, _ why: String, text: String? = nil) {
            self.status = status
            self.why = why
            self.text = text
        }
    }

    /// Admits the handshake to its room (nil), or says why not with the HTTP status to answer.
    func admitHandshake(_ wsi: OpaquePointer) -> HandshakeRefusal? {
        if joining[wsi] != nil { return nil }
        guard drain == nil else { return .init(503, "WebSocket: the server is shutting down") }
        let path = header(wsi, WSI_TOKEN_GET_URI) ?? ""
        guard let name = RoomAddress.socket(path) else {
            return .init(404, "WebSocket at \(path.prefix(100)): the endpoints are /ws and /ws/NAME (NAME: 1 to 40 of a-z, 0-9, - and _, starting with a letter or digit)")
        }
        if let why = originRefusal(wsi) {
            return .init(403, "WebSocket from \(peerAddress(wsi)): \(why)")
        }
        if case .refused(let reason, let detail) = SubprotocolOffer(header: header(wsi, WSI_TOKEN_PROTOCOL)) {
            return .init(400, "WebSocket from \(peerAddress(wsi)): \(detail)", text: reason)
        }
        guard sessions.count + joining.count < config.limits.maxClients else {
            return .init(503, "WebSocket from \(peerAddress(wsi)): \(config.limits.maxClients) clients already (--max-clients)")
        }
        let credential = credential(wsi, handshake: true)
        switch host.admit(name, from: peerKey(wsi), now: Uptime.seconds()) {
        case .room(let room, let creator):
            // Whoever made the room is its owner, whatever they brought (a link to a room that
            // was forgotten since makes a new one). In a cluster, whether this joiner made it is
            // known only once the room is: the owner's secret waits until then (`admitToRoom`).
            joining[wsi] = Joining(room: room, credential: credential, creator: creator,
                                   batches: MessageBatch.asked(inOffer: header(wsi, WSI_TOKEN_PROTOCOL)))
            return nil
        case .refused(let status, let why):
            return .init(status, "WebSocket from \(peerAddress(wsi)) to \(why)")
        }
    }

    /// A handshake admitted to a room ended before it opened: it no longer counts there.
    func handshakeEnded(_ wsi: OpaquePointer) {
        guard let room = joining.removeValue(forKey: wsi)?.room else { return }
        host.left(room, now: Uptime.seconds())
    }

    /// Why the request on `wsi` may not be served (`OriginPolicy`: another site's `Origin`, a
    /// `Host` that is not a loopback name on a loopback server); nil: it may. One rule for
    /// every request, files, JSON, exports and WebSockets alike.
    func originRefusal(_ wsi: OpaquePointer) -> String? {
        if case .refused(let why) = config.originPolicy.verdict(origin: header(wsi, WSI_TOKEN_ORIGIN), host: header(wsi, WSI_TOKEN_HOST)) {
            return why
        }
        return nil
    }

    func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0, length < 8192 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func peerAddress(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The peer's address as limits count it (an IPv6 /64 as one).
    func peerKey(_ wsi: OpaquePointer) -> PeerAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getpeername(lws_get_socket_fd(wsi), $0, &length) == 0
            }
        }
        return found ? withUnsafePointer(to: &storage) { PeerAddress($0) } ?? PeerAddress(ipv4: [0, 0, 0, 0])
            : PeerAddress(ipv4: [0, 0, 0, 0])
    }
}
