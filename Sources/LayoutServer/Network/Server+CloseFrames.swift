import CLibWebSockets
import LayoutCore

/// A client's close frame (LWS_CALLBACK_WS_PEER_INITIATED_CLOSE, service thread).
///
/// libwebsockets 4.1.6 (lib/roles/ws/ops-ws.c, lws_ws_rx_sm) calls this with the frame's
/// payload. Returning 0 lets it echo that payload and close; a non-zero return makes it close
/// the connection instead (lws_close_free_wsi), sending the close frame `lws_close_reason` set
/// up, or none if nothing was set up. Before calling, it has already overwritten codes it
/// knows to be invalid (below 1000, 1004-1006, 1012-1015, 1016-2999) with 1002; it lets
/// 5000 and up, 1-byte payloads and reasons that are not UTF-8 through. It never calls this
/// with output still buffered (it drops the connection itself then), so a close set up here
/// goes out as soon as the socket takes it.
extension Server {
    func peerClosed(_ wsi: OpaquePointer, payload: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard let session = sessions[wsi] else { return 0 }
        let bytes = UnsafeRawBufferPointer(start: payload, count: payload == nil ? 0 : length)
        var bad: (status: UInt32, reason: String)?
        if case .fail(let status, let reason) = CloseFrameAnswer(payload: bytes) { bad = (UInt32(status), reason) }
        if bytes.count >= 2 { session.closeStatus = UInt16(bytes[0]) << 8 | UInt16(bytes[1]) }
        // A close of our own waiting for a write (1009, 1008, 1012) answers instead of the echo,
        // which would otherwise replace it (`ConnectionLife.peerClosed`).
        switch session.life.peerClosed(bad: bad) {
        case .echo:
            return 0
        case .close(let status, let reason):
            if let bad { logger.info("\(session.client) sent a bad close frame (\(bad.reason)): closing with \(status)") }
            return setUpClose(session, status, reason)
        }
    }
}
