import CLibWebSockets
import Foundation

/// The readers, slow readers and stalled clients of a run without rooms are the tool's own
/// WebSocket clients (`WebSocketHandshake`, `WebSocketFrameReader`) on raw sockets that
/// libwebsockets polls, reads (256 KB a call) and times: its client parser, a byte at a time,
/// cost most of the tool's CPU.
struct RawPeer {
    var handshake: WebSocketHandshake?
    var reader: WebSocketFrameReader
    var request: [UInt8]?
    var pongs: [[UInt8]] = []
}

extension LoadClients {
    var usesRawClients: Bool { options.rooms == nil }

    func connectRaw(slot: Int) {
        // Readers by their run-wide index, the others by slot: every server gets its share.
        let url = options.url(ofClient: slot < part.readers.count ? part.readers[slot] : part.index + slot)
        guard let socket = RawSocket.connect(host: url.host, port: url.port,
                                             receiveBuffer: tallies[slot].slow ? options.slowReceiveBuffer : nil) else {
            tallies[slot].connectFailed = true
            return
        }
        var descriptor = lws_sock_file_fd_type()
        descriptor.sockfd = socket
        guard let vhost = lws_get_vhost_by_name(context, "default"),
              let wsi = lws_adopt_descriptor_vhost(vhost, LWS_ADOPT_SOCKET, descriptor, LoadContext.protocolName, nil) else {
            close(socket)
            tallies[slot].connectFailed = true
            return
        }
        let key = (0..<16).map { _ in UInt8.random(in: 0...255) }
        rawPeers[slot] = RawPeer(handshake: WebSocketHandshake(subprotocol: options.wireProtocol.subprotocol),
                                 reader: WebSocketFrameReader(keptBytes: keptBytes),
                                 request: WebSocketHandshake.request(host: url.host, port: url.port, path: url.path,
                                                                     subprotocol: options.wireProtocol.subprotocol, key: key))
        lws_set_opaque_user_data(wsi, Peer.client(slot).userData)
        lws_callback_on_writable(wsi)
    }

    func handleRaw(slot: Int, wsi: OpaquePointer, reason: lws_callback_reasons, input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_RAW_WRITEABLE:
            return writeRaw(slot: slot, wsi: wsi)
        case LWS_CALLBACK_RAW_RX:
            guard let input else { return 0 }
            return receivedRaw(slot: slot, wsi: wsi, bytes: UnsafeRawBufferPointer(start: input, count: length))
        case LWS_CALLBACK_TIMER:
            lws_rx_flow_control(wsi, 1) // a slow reader's pause is over
        case LWS_CALLBACK_RAW_CLOSE:
            if !tallies[slot].connected { tallies[slot].connectFailed = true }
            if phase != .done, tallies[slot].closedWith == nil { tallies[slot].closedWith = 1006 }
        default:
            break
        }
        return 0
    }

    private func writeRaw(slot: Int, wsi: OpaquePointer) -> Int32 {
        var bytes: [UInt8]
        if let request = rawPeers[slot]?.request {
            bytes = request
            rawPeers[slot]?.request = nil
        } else if let pong = rawPeers[slot]?.pongs.first {
            bytes = pong
            rawPeers[slot]?.pongs.removeFirst()
        } else {
            return 0
        }
        let count = bytes.count
        bytes.insert(contentsOf: repeatElement(0, count: forcelayout_lws_pre), at: 0)
        let written = bytes.withUnsafeMutableBufferPointer { lws_write(wsi, $0.baseAddress! + forcelayout_lws_pre, count, LWS_WRITE_HTTP) }
        if rawPeers[slot]?.pongs.isEmpty == false { lws_callback_on_writable(wsi) }
        return written == count ? 0 : -1
    }

    private func receivedRaw(slot: Int, wsi: OpaquePointer, bytes: UnsafeRawBufferPointer) -> Int32 {
        tallies[slot].bytes += bytes.count
        guard rawPeers[slot] != nil else { return -1 }
        var events: [WebSocketFrameReader.Event] = []
        let time = now()
        if var handshake = rawPeers[slot]!.handshake {
            switch handshake.feed(bytes) {
            case .pending:
                rawPeers[slot]!.handshake = handshake
                return 0
            case .refused:
                tallies[slot].connectFailed = true
                return -1
            case .accepted(let rest):
                rawPeers[slot]!.handshake = nil
                established(slot: slot, wsi: wsi)
                rest.withUnsafeBytes { stream in rawPeers[slot]!.reader.feed(stream, at: time) { events.append($0) } }
            }
        } else {
            rawPeers[slot]!.reader.feed(bytes, at: time) { events.append($0) }
        }
        return handled(events, slot: slot, wsi: wsi, read: bytes.count, at: time)
    }

    private func handled(_ events: [WebSocketFrameReader.Event], slot: Int, wsi: OpaquePointer, read: Int, at arrived: Double) -> Int32 {
        for event in events {
            switch event {
            case .message(let binary, let head, let length, let startedAt):
                tallies[slot].messageBytes = length
                guard let frameHead = FrameHead(head, binary: binary) else { continue }
                _ = counted(frameHead, slot: slot, at: arrived)
                if tallies[slot].slow, frameHead.type == "frame", let at = frameHead.at {
                    ages.slowStarts.record(startedAt * 1000 - at)
                }
            case .ping(let payload):
                let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
                rawPeers[slot]?.pongs.append(WebSocketFrameWriter.masked(opcode: 10, payload: payload, mask: mask))
                lws_callback_on_writable(wsi)
            case .close(let code):
                tallies[slot].closedWith = code ?? 1005
                return -1
            }
        }
        if tallies[slot].slow { pace(slot: slot, wsi: wsi, bytes: read) }
        return 0
    }
}
