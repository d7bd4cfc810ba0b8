import CLibWebSockets

/// Every libwebsockets event of the layout protocol (and of HTTP bound to it), on the service thread.
extension Server {
    func handle(wsi: OpaquePointer, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
                input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return confirmUpgrade(wsi)
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            // Admitted at the confirmation; checked here in case an upgrade ever skips it.
            return admitHandshake(wsi) == nil ? 0 : 1
        case LWS_CALLBACK_ESTABLISHED:
            return opened(wsi)
        case LWS_CALLBACK_RECEIVE:
            guard let session = sessions[wsi] else { return -1 }
            return received(session, input: input, length: length)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            return peerClosed(wsi, payload: input, length: length)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let session = sessions[wsi] else { return 0 }
            return writable(session)
        case LWS_CALLBACK_TIMER:
            return paceTimerFired(wsi)
        case LWS_CALLBACK_CLOSED:
            return closed(wsi)
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            return woken(wsi)  // non-zero would close lws's wake-up pipe for good
        case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
            return filterHTTP(wsi, path: Self.string(input))
        case LWS_CALLBACK_HTTP:
            return serveHTTP(wsi, rest: Self.string(input))
        case LWS_CALLBACK_HTTP_WRITEABLE:
            return httpWritable(wsi) ?? lws_callback_http_dummy(wsi, reason, user, input, length)
        case LWS_CALLBACK_CLOSED_HTTP:
            httpClosed(wsi)
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        default:
            // Connection events reach whichever protocol the connection is bound to at the
            // time; what is not one of them goes on to lws's HTTP handler from there.
            return handleConnection(wsi: wsi, reason: reason, user: user, input: input, length: length)
        }
    }

    /// The body of an answer waiting, or an export's headers; nil: nothing of ours to write.
    private func httpWritable(_ wsi: OpaquePointer) -> Int32? {
        writeHTTPBody(wsi) ?? writeExportHeaders(wsi)
    }

    private func httpClosed(_ wsi: OpaquePointer) {
        pendingHTTP.removeValue(forKey: wsi)
        forgetExport(wsi)
    }

    /// A frame waited for its reader to catch up (`PeerPacing`): see whether it may go. 0.
    private func paceTimerFired(_ wsi: OpaquePointer) -> Int32 {
        if sessions[wsi] != nil { lws_callback_on_writable(wsi) }
        return 0
    }

    /// Rooms published something: let their connections see whether they have work. 0.
    private func woken(_ wsi: OpaquePointer) -> Int32 {
        if overflowAlarm.take() { closeSessionsTooFarBehind() }
        for name in host.changed.take() {
            let members = sessions.members(of: name)
            recheckAccess(of: members)
            for session in members { lws_callback_on_writable(session.wsi) }
        }
        exportsReady()
        roomsLoaded()
        clusterNoticesArrived()
        return 0
    }

    /// A complete HTTP request that is not an upgrade: only GET and HEAD, only under the origin
    /// rule every request follows (`originRefusal`: 403), only paths that stay inside the public
    /// folder (non-zero: answered and closing).
    private func filterHTTP(_ wsi: OpaquePointer, path: String) -> Int32 {
        requestArrived(wsi)
        guard isGetOrHead(wsi) else { return refuseHTTP(wsi, .methodNotAllowed) }
        if let why = originRefusal(wsi) {
            logger.info("refused GET \(path.prefix(200)) to \(peerAddress(wsi)): \(why)")
            _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_FORBIDDEN.rawValue), nil)
            return 1
        }
        guard publicFiles.allows(path) else {
            logger.info("refused GET \(path.prefix(200)): it resolves outside \(publicFiles.root)")
            _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_NOT_FOUND.rawValue), nil)
            return 1
        }
        return 0
    }

    private static func string(_ input: UnsafeMutableRawPointer?) -> String {
        input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
    }
}
