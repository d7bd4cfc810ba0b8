import CLibWebSockets
import Foundation
import LayoutCore
import LayoutRooms

/// What the server answers itself over HTTP (`HEAD`: the same headers, no body): `GET /stats`
/// and `GET /rooms` as application/json, `GET /export/…` (`Server+Export`), `GET /metrics`,
/// `/healthz` and `/readyz` (`Server+Operations`), and under `/r/` the page of a room or a file of
/// `Public/` (so the page's relative paths resolve there), else a 404 page saying what is wrong with the room's name
/// (`MistypedRoomPage`).
extension Server {
    /// `rest` is what follows the mount's path (`/stats`, `/rooms` or `/r`) in the request's.
    func serveHTTP(_ wsi: OpaquePointer, rest: String) -> Int32 {
        let path = header(wsi, WSI_TOKEN_GET_URI) ?? header(wsi, WSI_TOKEN_HEAD_URI) ?? ""
        let exact = rest.isEmpty || rest == "/"
        if path.hasPrefix(Server.statsPath), exact {
            // Room main's figures, unless it is private and the request has no link to it.
            let hidden = host.rooms[.main].map {
                $0.access.current.access.exportVerdict(credential(wsi, handshake: false)) == .notFound
            } ?? false
            return respondJSON(wsi, statsJSON(for: nil, hidingMain: hidden))
        }
        if path.hasPrefix(Server.roomsPath), exact { return respondJSON(wsi, roomsJSON(for: credential(wsi, handshake: false))) }
        if path.hasPrefix(Server.metricsPath), exact { return serveMetrics(wsi) }
        if path.hasPrefix(Server.healthPath), exact { return serveHealth(wsi) }
        if path.hasPrefix(Server.readyPath), exact { return serveReadiness(wsi) }
        if path.hasPrefix(Server.exportPath + "/") { return serveExport(wsi, rest: rest) }
        if path.hasPrefix(RoomAddress.pagePath + "/") || path == RoomAddress.pagePath {
            switch RoomAddress.page(rest) {
            case .room:
                return serveFile(wsi, publicFiles.root + "/index.html", type: "text/html")
            case .file(let name) where publicFiles.allows("/" + name) && Self.isRegularFile(publicFiles.root + "/" + name):
                let file = publicFiles.root + "/" + name
                let type = lws_get_mimetype(file, filesMount).map { String(cString: $0) } ?? "application/octet-stream"
                return serveFile(wsi, file, type: type)
            case .file, .none:
                // A mistyped room address: what is wrong, in the room switcher's words.
                return respond(wsi, HTTPBody(MistypedRoomPage.html(typed: String(rest.drop(while: { $0 == "/" })))),
                               type: MistypedRoomPage.contentType, status: UInt32(HTTP_STATUS_NOT_FOUND.rawValue))
            }
        }
        return notFound(wsi)
    }

    private func serveFile(_ wsi: OpaquePointer, _ file: String, type: String) -> Int32 {
        let served = lws_serve_http_file(wsi, file, type, nil, 0)
        return served < 0 || (served > 0 && lws_http_transaction_completed(wsi) != 0) ? -1 : 0
    }

    private func respondJSON(_ wsi: OpaquePointer, _ json: [UInt8]) -> Int32 {
        respond(wsi, HTTPBody(json), type: "application/json")
    }

    /// Writes the headers (`status`, `Cache-Control: no-store` and `extraHeaders`), then the
    /// body a chunk per writable (none for `HEAD`).
    func respond(_ wsi: OpaquePointer, _ body: HTTPBody, type: String, status: UInt32 = UInt32(HTTP_STATUS_OK.rawValue),
                 extraHeaders: [(lws_token_indexes, String)] = []) -> Int32 {
        var headers = [UInt8](repeating: 0, count: OutgoingMessage.reserved + 1024)
        let ok: Bool = headers.withUnsafeMutableBufferPointer { buffer in
            let start = buffer.baseAddress! + OutgoingMessage.reserved
            let end = buffer.baseAddress! + buffer.count
            var cursor: UnsafeMutablePointer<UInt8>? = start
            guard lws_add_http_common_headers(wsi, status, type, lws_filepos_t(body.count), &cursor, end) == 0 else { return false }
            for (token, value) in [(WSI_TOKEN_HTTP_CACHE_CONTROL, "no-store")] + extraHeaders {
                let bytes = Array(value.utf8)
                guard lws_add_http_header_by_token(wsi, token, bytes, Int32(bytes.count), &cursor, end) == 0 else { return false }
            }
            return lws_finalize_write_http_header(wsi, start, &cursor, end) == 0
        }
        guard ok else { return 1 }
        if lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0 {
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        }
        pendingHTTP[wsi] = BodyWrite(body)
        lws_callback_on_writable(wsi)
        return 0
    }

    /// The next chunk of the body waiting on `wsi` (nil: none). A chunk handed to lws is
    /// progress: the connection's deadline starts again, so a large body is never cut while
    /// its reader reads, and a reader that stops is closed after `--request-timeout`.
    func writeHTTPBody(_ wsi: OpaquePointer) -> Int32? {
        guard var write = pendingHTTP[wsi] else { return nil }
        let chunk = write.nextChunk, isLast = write.nextIsLast
        let payload = chunkBuffer.load(chunk, of: write.body)
        guard lws_write(wsi, payload, chunk.count, isLast ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) == chunk.count else { return -1 }
        write.wrote(chunk)
        progressed(wsi)
        guard write.isDone else {
            pendingHTTP[wsi] = write
            lws_callback_on_writable(wsi)
            return 0
        }
        pendingHTTP[wsi] = nil
        endExport(wsi)
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// The response on `wsi` moved on (a chunk written, or its document is still being made
    /// by the server): its deadlines, ours and libwebsockets', start again.
    func progressed(_ wsi: OpaquePointer) {
        requestArrived(wsi)
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Int32(config.limits.requestTimeout))
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}
