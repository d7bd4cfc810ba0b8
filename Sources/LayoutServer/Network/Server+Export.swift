import CLibWebSockets
import LayoutCore
import LayoutRooms

/// `GET /export/NAME.json`, `/export/NAME.gexf` and `/export/NAME.svg`: a room as node-link JSON,
/// GEXF or an SVG drawing (`SVGDrawing`), from one
/// tick; `/export/NAME.flhistory`: a span of its history (`Server+HistoryExport`). A room in memory is written by its next turn (`TurnRequest.export`) and the answer
/// waits for it; a room that is only on disk is read, checked and encoded from its state file
/// by the file reader (`StateFileReader`), never on the service thread, and every export of it
/// asked for meanwhile shares that one job and its document. The document goes out a chunk per
/// writable (`BodyWrite`). `ExportBudget` bounds the exports under way per address (429) and
/// the documents held (503). Rooms only on disk: `Server+ExportFiles`. Another site's page, or a DNS-rebinding one, gets 403 before this
/// (`filterHTTP`, the rule of every request).
extension Server {
    /// An export under way on a connection.
    struct ExportRequest {
        let name: RoomName
        let document: ExportDocument
        let address: PeerAddress
        /// The link its `Authorization` header brought (`RoomAccess.exportVerdict`).
        let credential: Credential
        var stage: Stage
        /// Bytes counted against the budget until its document arrives (`ExportBudget.admit`).
        var expecting: Int

        enum Stage {
            /// Waiting for its document (from the room's turn, Redis, or the file reader).
            case waiting
            case ready(HTTPBody)
            /// No such room after all: 404 when writable.
            case missing
            /// The room's access does not let this request export it: 404 (private) or 403.
            case denied(RoomAccess.ExportVerdict)
            /// Its file is unusable: 503 when writable.
            case refused
            /// Its body is being written (`pendingHTTP`); the document is held in the budget.
            case writing(HTTPBody)
        }
    }

    /// What an export writes: a room's layout in one of `LayoutExport`'s formats, or a span of its
    /// history (`.flhistory`, docs/history-format.md).
    enum ExportDocument: Equatable {
        case layout(LayoutExport.Format)
        case history

        var fileExtension: String {
            switch self {
            case .layout(let format): format.rawValue
            case .history: HistoryFileFormat.fileExtension
            }
        }

        var contentType: String {
            switch self {
            case .layout(let format): format.contentType
            case .history: HistoryFileFormat.contentType
            }
        }
    }

    func serveExport(_ wsi: OpaquePointer, rest: String) -> Int32 {
        if rest.hasSuffix("." + HistoryFileFormat.fileExtension) { return serveHistoryExport(wsi, rest: rest) }
        guard let (name, format) = Self.exportAddress(rest) else { return notFound(wsi) }
        let address = peerKey(wsi)
        let credential = credential(wsi, handshake: false)
        // A room in memory is judged now, before any work; one read from its file or from
        // Redis once its access is read with it.
        if let room = host.rooms[name], room.role.hasLayout,
           case let verdict = room.access.current.access.exportVerdict(credential), verdict != .allowed {
            return deny(wsi, name, verdict)
        }
        let fromFile = host.rooms[name]?.role.hasLayout != true && cluster == nil
        let key = ExportKey(name: name, format: format)
        let held = fromFile ? heldDocument(of: key) : nil
        if let held, case let verdict = held.access.exportVerdict(credential), verdict != .allowed {
            return deny(wsi, name, verdict)
        }
        // A room file's export is one job however many ask (at most `maxFileExportJobs`);
        // a room in memory writes a document per turn: expect the size of its last one.
        let expecting = fromFile ? 0 : lastDocumentSizes[key] ?? 0
        if let refused = admitExport(wsi, name, from: address, sharing: held != nil, expecting: expecting) { return refused }
        exports[wsi] = ExportRequest(name: name, document: .layout(format), address: address, credential: credential,
                                     stage: .waiting, expecting: expecting)
        return fetchDocument(wsi, name: name, format: format, held: held?.body, credential: credential)
    }

    /// Counts an export from `address` under way (`ExportBudget.admit`); else answers it 429 (too
    /// many of this address) or 503 (the budget is held), and that answer's result is returned.
    func admitExport(_ wsi: OpaquePointer, _ name: RoomName, from address: PeerAddress, sharing: Bool, expecting: Int) -> Int32? {
        switch exportBudget.admit(from: address, sharing: sharing, expecting: expecting) {
        case .admit:
            return nil
        case .tooMany(let count):
            logger.info("refused export of \(name) to \(peerAddress(wsi)): \(count) exports of this address under way")
            return respond(wsi, HTTPBody(Array("\(count) exports of this address are under way; try again later\n".utf8)),
                           type: "text/plain", status: 429, extraHeaders: [(WSI_TOKEN_HTTP_RETRY_AFTER, "1")])
        case .full(let bytes):
            logger.info("refused export of \(name) to \(peerAddress(wsi)): exports hold \(exportBudget.heldBytes) bytes (budget \(bytes))")
            return busy(wsi, "exports under way hold the server's budget; try again later\n")
        }
    }

    /// 404 for a private room (its existence is not confirmed), 403 for a view room, with
    /// nothing of the request's link in the log or the answer.
    func deny(_ wsi: OpaquePointer, _ name: RoomName, _ verdict: RoomAccess.ExportVerdict) -> Int32 {
        logger.info("refused export of \(name) to \(peerAddress(wsi)): \(verdict == .notFound ? "a private room" : "a view room"), and no link that opens it")
        guard verdict == .forbidden else { return notFound(wsi) }
        return respond(wsi, HTTPBody(Array("this room is exported only with one of its links: Authorization: Bearer SECRET\n".utf8)),
                       type: "text/plain", status: 403)
    }

    /// Sets off the document of an export just admitted: one held already for the same room
    /// file, or else as the room's next turn writes it, as its state in Redis has it, or as
    /// its file has it.
    private func fetchDocument(_ wsi: OpaquePointer, name: RoomName, format: LayoutExport.Format, held: HTTPBody?,
                               credential: Credential) -> Int32 {
        if let held {
            documentArrived(wsi, .ready(held))
            return 0
        }
        if let room = host.rooms[name], room.role.hasLayout {
            let deliver = awaitExport(wsi)
            host.request(.export(format, deliver: { deliver(.document($0)) }), of: room)
            return 0
        }
        if let cluster {
            // Stepped on another server, or nowhere: as its state in Redis has it.
            let deliver = awaitExport(wsi)
            cluster.readState(of: name) { saved in
                guard let saved else { return deliver(.missing) }
                let verdict = saved.access.exportVerdict(credential)
                guard verdict == .allowed else { return deliver(.denied(verdict)) }
                deliver(.document(LayoutExport(room: name.description, tick: 0, snapshot: saved.layout, catalog: saved.catalog)
                    .encoded(as: format)))
            }
            return 0
        }
        return exportFromFile(wsi, name: name, format: format)
    }

    /// The connection waits for its document, written on another thread: what that thread hands
    /// to the returned closure (nil: no such room after all) wakes the service thread for it.
    func awaitExport(_ wsi: OpaquePointer) -> @Sendable (ExportArrival) -> Void {
        nextExportToken += 1
        let token = nextExportToken
        exportTokens[token] = wsi
        let ready = readyExports
        return { ready.post((token, $0)) }
    }

    /// Documents rooms' turns, Redis and the file reader produced: their connections may write
    /// the answer. A document several requests share is held once.
    func exportsReady() {
        var shared: [UnsafeRawPointer?: HTTPBody] = [:]
        for (token, arrival) in readyExports.take() {
            guard let wsi = exportTokens.removeValue(forKey: token) else { continue }
            let bytes: [UInt8]
            switch arrival {
            case .document(let document): bytes = document
            case .missing: documentArrived(wsi, .missing); continue
            case .denied(let verdict): documentArrived(wsi, .denied(verdict)); continue
            }
            // A turn hands every export of one format the same array: one body for them.
            let key = bytes.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
            let body = shared[key] ?? HTTPBody(bytes)
            shared[key] = body
            documentArrived(wsi, .ready(body))
        }
        fileExportsReady()
    }

    func documentArrived(_ wsi: OpaquePointer, _ stage: ExportRequest.Stage) {
        guard let request = exports[wsi] else { return }
        exportBudget.arrived(expecting: request.expecting)
        exports[wsi]!.expecting = 0
        if case .ready(let body) = stage, case .layout(let format) = request.document {
            rememberSize(body.count, of: ExportKey(name: request.name, format: format))
        }
        exports[wsi]!.stage = stage
        lws_callback_on_writable(wsi)
    }

    /// The export's answer, when its document is ready: the headers now, the body a chunk per
    /// writable after them (`pendingHTTP`). nil: no export answer is due on this connection.
    func writeExportHeaders(_ wsi: OpaquePointer) -> Int32? {
        guard let request = exports[wsi] else { return nil }
        switch request.stage {
        case .waiting, .writing:
            return 0
        case .missing:
            endExport(wsi)
            return notFound(wsi)
        case .denied(let verdict):
            endExport(wsi)
            return deny(wsi, request.name, verdict)
        case .refused:
            endExport(wsi)
            return busy(wsi, "the room's file is unusable (see the server's log)\n", retry: false)
        case .ready(let body):
            let disposition = "attachment; filename=\"\(request.name).\(request.document.fileExtension)\""
            let result = respond(wsi, body, type: request.document.contentType,
                                 extraHeaders: [(WSI_TOKEN_HTTP_CONTENT_DISPOSITION, disposition)])
            if pendingHTTP[wsi] != nil {
                exports[wsi]!.stage = .writing(body)
                exportBudget.hold(body.identity, bytes: body.count)
            } else {
                endExport(wsi)  // HEAD, or the headers could not be written
            }
            return result
        }
    }

    /// The export on `wsi` is over (answered, or its connection closed): it no longer counts
    /// against its address, and lets go of its document.
    func endExport(_ wsi: OpaquePointer) {
        guard let request = exports.removeValue(forKey: wsi) else { return }
        exportBudget.ended(from: request.address)
        exportBudget.arrived(expecting: request.expecting)
        if case .writing(let body) = request.stage { exportBudget.release(body.identity) }
        dropUnheldFileDocuments()
    }

    /// The size of a room's last document of a format, what its next export is expected to take
    /// (at most 1024 rooms' sizes are kept).
    private func rememberSize(_ bytes: Int, of job: ExportKey) {
        if lastDocumentSizes.count >= 1024, lastDocumentSizes[job] == nil { lastDocumentSizes.removeAll() }
        lastDocumentSizes[job] = bytes
    }

    /// The connection closed: forget its export, wherever it was.
    func forgetExport(_ wsi: OpaquePointer) {
        guard exports[wsi] != nil else { return }
        endExport(wsi)
        exportTokens = exportTokens.filter { $0.value != wsi }
        for (job, waiting) in fileExportJobs where waiting.contains(wsi) {
            fileExportJobs[job] = waiting.filter { $0 != wsi }
        }
    }

    /// Once a second: a connection waiting for its document is waiting on the server, not on
    /// its client, so its deadlines (ours and libwebsockets') start again.
    func keepWaitingExportsAlive() {
        dropUnheldFileDocuments()
        for (wsi, request) in exports {
            guard case .waiting = request.stage else { continue }
            progressed(wsi)
        }
    }

    /// 503 with a short text (and `Retry-After: 1` when trying again may help).
    func busy(_ wsi: OpaquePointer, _ text: String, retry: Bool = true) -> Int32 {
        respond(wsi, HTTPBody(Array(text.utf8)), type: "text/plain", status: 503,
                extraHeaders: retry ? [(WSI_TOKEN_HTTP_RETRY_AFTER, "1")] : [])
    }

    /// `NAME.json`, `NAME.gexf` or `NAME.svg` after `/export/`.
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
