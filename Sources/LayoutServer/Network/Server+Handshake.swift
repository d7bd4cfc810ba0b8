import CLibWebSockets

/// Who may open a WebSocket, and what a request's headers say.
extension Server {
    /// A WebSocket handshake arrived: the place to refuse it with an HTTP status (>0: answered).
    func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        requestArrived(wsi)
        guard let (status, why) = handshakeRefusal(wsi) else { return 0 }
        logger.info("refused \(why)")
        _ = lws_return_http_status(wsi, status, nil)
        return 1
    }

    /// Why a WebSocket handshake must be refused, with the HTTP status to answer; nil to serve it.
    func handshakeRefusal(_ wsi: OpaquePointer) -> (status: UInt32, why: String)? {
        guard shutdownDeadline == nil else { return (503, "WebSocket: the server is shutting down") }
        let path = header(wsi, WSI_TOKEN_GET_URI) ?? ""
        guard path == Server.websocketPath else {
            return (404, "WebSocket at \(path.prefix(100)): the endpoint is \(Server.websocketPath)")
        }
        let origin = header(wsi, WSI_TOKEN_ORIGIN)
        if case .refused(let why) = config.originPolicy.verdict(origin: origin, host: header(wsi, WSI_TOKEN_HOST)) {
            return (403, "WebSocket from \(peerAddress(wsi)): \(why)")
        }
        guard sessions.count < config.limits.maxClients else {
            return (503, "WebSocket from \(peerAddress(wsi)): \(config.limits.maxClients) clients already (--max-clients)")
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
}
