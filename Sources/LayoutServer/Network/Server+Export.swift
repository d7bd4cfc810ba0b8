import CLibWebSockets

/// `GET /export/NAME.json` and `/export/NAME.gexf`: a room as node-link JSON or GEXF, from one
/// tick. A room in memory is written by its next turn (`TurnRequest.export`) and the answer
/// waits for it; a room that is only on disk is read from its state file. Another site's page,
/// or a DNS-rebinding one, gets 403 before this (`filterHTTP`, the rule of every request).
extension Server {
    /// An export waiting for its document, or with its headers or its body still to write.
    enum PendingExport {
        case waiting(format: LayoutExport.Format, name: RoomName)
        case headersDue(OutgoingMessage, format: LayoutExport.Format, name: RoomName)
        /// No such room after all (a cluster's room with no state in Redis): 404 when writable.
        case missing
    }

    func serveExport(_ wsi: OpaquePointer, rest: String) -> Int32 {
        guard let (name, format) = Self.exportAddress(rest) else { return notFound(wsi) }
        if let room = host.rooms[name], room.role.hasLayout {
            host.request(.export(format, deliver: awaitExport(wsi, format: format, name: name)), of: room)
            return 0
        }
        if let cluster = host.cluster {
            // Stepped on another server, or nowhere: as its state in Redis has it.
            let deliver = awaitExport(wsi, format: format, name: name)
            cluster.readState(of: name) { saved in
                deliver(saved.map {
                    LayoutExport(room: name.description, tick: 0, snapshot: $0.layout, catalog: $0.catalog).encoded(as: format)
                })
            }
            return 0
        }
        switch host.savedExport(of: name) {
        case .success(let export?):
            pendingExports[wsi] = .headersDue(OutgoingMessage(export.encoded(as: format)), format: format, name: name)
            lws_callback_on_writable(wsi)
            return 0
        case .success(nil):
            return notFound(wsi)
        case .failure(let failure):
            logger.error("export of \(name): \(failure)")
            return lws_return_http_status(wsi, UInt32(HTTP_STATUS_SERVICE_UNAVAILABLE.rawValue), nil) != 0 ? -1 : 1
        }
    }

    /// The connection waits for its document, written on another thread: what that thread hands
    /// to the returned closure (nil: no such room after all) wakes the service thread for it.
    private func awaitExport(_ wsi: OpaquePointer, format: LayoutExport.Format, name: RoomName) -> @Sendable ([UInt8]?) -> Void {
        nextExportToken += 1
        let token = nextExportToken
        exportTokens[token] = wsi
        pendingExports[wsi] = .waiting(format: format, name: name)
        let ready = readyExports
        return { ready.post((token, $0)) }
    }

    /// Exports their rooms have written: their connections may write the answer.
    func exportsReady() {
        for (token, body) in readyExports.take() {
            guard let wsi = exportTokens.removeValue(forKey: token),
                  case .waiting(let format, let name)? = pendingExports[wsi] else { continue }
            guard let body else {
                pendingExports[wsi] = .missing
                lws_callback_on_writable(wsi)
                continue
            }
            pendingExports[wsi] = .headersDue(OutgoingMessage(body), format: format, name: name)
            lws_callback_on_writable(wsi)
        }
    }

    /// The export's headers, when its document is ready (the body follows on the next
    /// writable, as `pendingHTTP`). nil: no export waits on this connection.
    func writeExportHeaders(_ wsi: OpaquePointer) -> Int32? {
        guard let pending = pendingExports[wsi] else { return nil }
        if case .missing = pending {
            pendingExports[wsi] = nil
            return notFound(wsi)
        }
        guard case .headersDue(let body, let format, let name) = pending else { return 0 }
        pendingExports[wsi] = nil
        let disposition = "attachment; filename=\"\(name).\(format.rawValue)\""
        return respond(wsi, body, type: format.contentType, extraHeaders: [(WSI_TOKEN_HTTP_CONTENT_DISPOSITION, disposition)])
    }

    /// The connection closed: forget its export.
    func forgetExport(_ wsi: OpaquePointer) {
        guard pendingExports.removeValue(forKey: wsi) != nil else { return }
        exportTokens = exportTokens.filter { $0.value != wsi }
    }

    /// `NAME.json` or `NAME.gexf` after `/export/`.
    static func exportAddress(_ rest: String) -> (RoomName, LayoutExport.Format)? {
        guard rest.hasPrefix("/"), let dot = rest.lastIndex(of: "."),
              let format = LayoutExport.Format(rawValue: String(rest[rest.index(after: dot)...])),
              let name = RoomName(String(rest[rest.index(after: rest.startIndex)..<dot])) else { return nil }
        return (name, format)
    }

    func notFound(_ wsi: OpaquePointer) -> Int32 {
        lws_return_http_status(wsi, UInt32(HTTP_STATUS_NOT_FOUND.rawValue), nil) != 0
            ? -1 : (lws_http_transaction_completed(wsi) != 0 ? -1 : 0)
    }
}
