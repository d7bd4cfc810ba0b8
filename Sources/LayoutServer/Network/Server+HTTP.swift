import CLibWebSockets

/// `GET /stats`: the same object the `stats` message carries, as application/json (`HEAD`:
/// the same headers, no body).
extension Server {
    func serveHTTP(_ wsi: OpaquePointer, path: String) -> Int32 {
        // The mount hands us what follows "/stats"; only the exact path is ours.
        guard path.isEmpty || path == "/" else {
            return lws_return_http_status(wsi, UInt32(HTTP_STATUS_NOT_FOUND.rawValue), nil) != 0 ? -1 : (lws_http_transaction_completed(wsi) != 0 ? -1 : 0)
        }
        let body = OutgoingMessage(statsJSON())
        var headers = [UInt8](repeating: 0, count: OutgoingMessage.reserved + 1024)
        let ok: Bool = headers.withUnsafeMutableBufferPointer { buffer in
            let start = buffer.baseAddress! + OutgoingMessage.reserved
            let end = buffer.baseAddress! + buffer.count
            var cursor: UnsafeMutablePointer<UInt8>? = start
            guard lws_add_http_common_headers(wsi, UInt32(HTTP_STATUS_OK.rawValue), "application/json",
                                              lws_filepos_t(body.count), &cursor, end) == 0 else { return false }
            let noStore = Array("no-store".utf8)
            guard lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, noStore, Int32(noStore.count),
                                               &cursor, end) == 0 else { return false }
            return lws_finalize_write_http_header(wsi, start, &cursor, end) == 0
        }
        guard ok else { return 1 }
        if lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0 {
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        }
        pendingHTTP[wsi] = body
        lws_callback_on_writable(wsi)
        return 0
    }

    func writeHTTPBody(_ wsi: OpaquePointer, _ body: OutgoingMessage) -> Int32 {
        guard lws_write(wsi, body.payload, body.count, LWS_WRITE_HTTP_FINAL) == body.count else { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }
}
