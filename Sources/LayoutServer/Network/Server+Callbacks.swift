import CLibWebSockets

/// Every libwebsockets event of the layout protocol (and of HTTP bound to it), on the service thread.
extension Server {
    func handle(wsi: OpaquePointer, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
                input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION, LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED,
             LWS_CALLBACK_WSI_DESTROY, LWS_CALLBACK_RAW_ADOPT, LWS_CALLBACK_RAW_RX, LWS_CALLBACK_RAW_WRITEABLE,
             LWS_CALLBACK_RAW_CLOSE:
            // Connection events reach whichever protocol the connection is bound to at the time.
            return handleConnection(wsi: wsi, reason: reason, user: user, input: input, length: length)
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            // The place to refuse a handshake with an HTTP status; >0 says we answered.
            requestArrived(wsi)
            guard let (status, why) = handshakeRefusal(wsi) else { return 0 }
            logger.info("refused \(why)")
            _ = lws_return_http_status(wsi, status, nil)
            return 1
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            // Checked again in case an upgrade ever reaches here without the confirmation.
            return handshakeRefusal(wsi) == nil ? 0 : 1
        case LWS_CALLBACK_ESTABLISHED:
            upgraded(wsi)
            opened(wsi)
            return 0
        case LWS_CALLBACK_RECEIVE:
            guard let session = sessions[wsi] else { return -1 }
            return received(session, input: input, length: length)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            return peerClosed(wsi, payload: input, length: length)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let session = sessions[wsi] else { return 0 }
            return writable(session)
        case LWS_CALLBACK_CLOSED:
            closed(wsi)
            return 0
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            // Something was published: let every connection see whether it has work.
            // Must return 0, or lws closes its wake-up pipe for good.
            if let context, let protocolInfo = lws_get_protocol(wsi) {
                if overflowAlarm.take() { closeSessionsTooFarBehind() }
                lws_callback_on_writable_all_protocol(context, protocolInfo)
            }
            return 0
        case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
            requestArrived(wsi)
            guard isGetOrHead(wsi) else { return refuseHTTP(wsi, .methodNotAllowed) }
            let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            guard publicFiles.allows(path) else {
                logger.info("refused GET \(path.prefix(200)): it resolves outside \(publicFiles.root)")
                _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_NOT_FOUND.rawValue), nil)
                return 1
            }
            return 0
        case LWS_CALLBACK_HTTP:
            return serveHTTP(wsi, path: input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "")
        case LWS_CALLBACK_HTTP_WRITEABLE:
            if let body = pendingHTTP.removeValue(forKey: wsi) { return writeHTTPBody(wsi, body) }
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        case LWS_CALLBACK_CLOSED_HTTP:
            pendingHTTP.removeValue(forKey: wsi)
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }
}
