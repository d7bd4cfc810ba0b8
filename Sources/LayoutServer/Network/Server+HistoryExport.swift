import CLibWebSockets
import LayoutCore
import LayoutRooms

/// `GET /export/NAME.flhistory?from=MS&to=MS`: a span of a room's history as a recording
/// (`HistoryLog.recording`, docs/history-format.md) that `forcelayout import` plays back into
/// another room. The rules of the other exports: the room's access judges the request's link
/// (`deny`), `ExportBudget` bounds the exports under way and the documents held, and the body
/// goes out a chunk per writable. The recording is written from a copy of the history on the
/// history's reader (`HistoryReader`), never on the service thread nor the room's turn. Only a
/// room in memory here, stepped by this server, is exported (its history on disk is read as the
/// room loads).
extension Server {
    func serveHistoryExport(_ wsi: OpaquePointer, rest: String) -> Int32 {
        guard rest.hasPrefix("/"),
              let name = RoomName(String(rest.dropFirst().dropLast(HistoryFileFormat.fileExtension.count + 1))) else { return notFound(wsi) }
        let span: HistorySpan
        switch HistorySpan.parse(from: urlArgument(wsi, "from"), to: urlArgument(wsi, "to")) {
        case .success(let parsed): span = parsed
        case .failure(let why): return respond(wsi, HTTPBody(Array("\(why)\n".utf8)), type: "text/plain", status: 400)
        }
        let credential = credential(wsi, handshake: false)
        guard let room = host.rooms[name], room.role.hasLayout else {
            // Not read from its folder here: a room's history is read (and a cut file mended)
            // only as the room loads, by the room's file reader.
            return noHistory(wsi, "room \(name) is not open on this server: its history is exported while the room is in memory (someone in it, or lately), on the server that steps it\n")
        }
        let verdict = room.access.current.access.exportVerdict(credential)
        guard verdict == .allowed else { return deny(wsi, name, verdict) }
        guard !room.history.isOff else {
            return noHistory(wsi, "this server keeps no history (--history-bytes or --history-seconds is 0)\n")
        }
        let log = room.history.current
        guard !log.isEmpty else { return noHistory(wsi, "room \(name) has no history yet\n") }
        // A recording takes about what the history counts (a bound: each keyframe's ids are
        // counted whether or not the file writes them).
        let address = peerKey(wsi)
        if let refused = admitExport(wsi, name, from: address, sharing: false, expecting: log.bytes) { return refused }
        exports[wsi] = ExportRequest(name: name, document: .history, address: address, credential: credential,
                                     stage: .waiting, expecting: log.bytes)
        let deliver = awaitExport(wsi)
        historyReader.recording(of: log, span) { bytes in deliver(bytes.map { .document($0) } ?? .missing) }
        return 0
    }

    private func noHistory(_ wsi: OpaquePointer, _ text: String) -> Int32 {
        respond(wsi, HTTPBody(Array(text.utf8)), type: "text/plain", status: UInt32(HTTP_STATUS_NOT_FOUND.rawValue))
    }

    /// The value of `name=` in the request's query, as sent (nil: absent).
    private func urlArgument(_ wsi: OpaquePointer, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 128)
        let found: String? = buffer.withUnsafeMutableBufferPointer { buffer in
            guard let value = lws_get_urlarg_by_name(wsi, name + "=", buffer.baseAddress, Int32(buffer.count)) else { return nil }
            return String(cString: value)
        }
        return found
    }
}
