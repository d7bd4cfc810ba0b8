import CLibWebSockets

/// What the reading and the stalled clients see: connected, a message (counted by its head),
/// closed.
extension LoadClients {
    func handle(wsi: OpaquePointer, reason: lws_callback_reasons, input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard let opaque = lws_get_opaque_user_data(wsi) else { return 0 }
        guard case .client(let slot) = Peer(userData: opaque) else {
            return handleControl(wsi: wsi, reason: reason, input: input, length: length)
        }
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            tallies[slot].connected = true
            if tallies[slot].stalled { lws_rx_flow_control(wsi, 0) }
        case LWS_CALLBACK_CLIENT_RECEIVE:
            guard let input else { return 0 }
            received(slot: slot, wsi: wsi, bytes: UnsafeRawBufferPointer(start: input, count: length))
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            tallies[slot].connectFailed = true
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let input, length >= 2 {
                let bytes = UnsafeRawBufferPointer(start: input, count: length)
                tallies[slot].closedWith = Int(bytes[0]) << 8 | Int(bytes[1])
            }
        case LWS_CALLBACK_CLIENT_CLOSED:
            if tallies[slot].closedWith == nil { tallies[slot].closedWith = 1006 }
        default:
            break
        }
        return 0
    }

    func received(slot: Int, wsi: OpaquePointer, bytes: UnsafeRawBufferPointer) {
        tallies[slot].bytes += bytes.count
        if heads[slot].count < FrameHead.prefixLength {
            heads[slot] += bytes.prefix(FrameHead.prefixLength - heads[slot].count)
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return }
        let arrived = now() * 1000
        if let head = FrameHead(heads[slot]) {
            switch head.type {
            case "frame":
                tallies[slot].frames += 1
                if let at = head.at { tallies[slot].latenciesMs.append(arrived - Double(at)) }
            case "error":
                tallies[slot].errors += 1
            default:
                break
            }
        }
        heads[slot].removeAll(keepingCapacity: true)
    }
}

/// libwebsockets' client callback: finds the `LoadClients` through the context's user pointer.
func loadClientCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                        _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let opaque = lws_context_user(context) else { return 0 }
    return Unmanaged<LoadClients>.fromOpaque(opaque).takeUnretainedValue()
        .handle(wsi: wsi, reason: reason, input: input, length: length)
}
