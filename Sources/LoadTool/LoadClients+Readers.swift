import CLibWebSockets

/// What the reading and the stalled clients see: connected, a message (counted by its head),
/// closed. With `rooms`, a reader first sends its room's set-up.
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
            if !setUpQueues[slot].isEmpty { lws_callback_on_writable(wsi) }
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            guard !setUpQueues[slot].isEmpty else { return 0 }
            guard send(setUpQueues[slot].removeFirst(), on: wsi) else { return -1 }
            if !setUpQueues[slot].isEmpty { lws_callback_on_writable(wsi) }
        case LWS_CALLBACK_CLIENT_RECEIVE:
            guard let input else { return 0 }
            guard received(slot: slot, wsi: wsi, bytes: UnsafeRawBufferPointer(start: input, count: length)) else {
                // Its room has settled (`settle`): leave it, with a close frame.
                tallies[slot].left = true
                lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, nil, 0)
                return -1
            }
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            tallies[slot].connectFailed = true
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let input, length >= 2 {
                let bytes = UnsafeRawBufferPointer(start: input, count: length)
                tallies[slot].closedWith = Int(bytes[0]) << 8 | Int(bytes[1])
            }
        case LWS_CALLBACK_CLIENT_CLOSED:
            // Once the run is done, the context's end closes every connection: not the server.
            if phase != .done, tallies[slot].closedWith == nil { tallies[slot].closedWith = 1006 }
        default:
            break
        }
        return 0
    }

    /// Counts a piece of a message, and the message once it is whole. False: leave now.
    func received(slot: Int, wsi: OpaquePointer, bytes: UnsafeRawBufferPointer) -> Bool {
        tallies[slot].bytes += bytes.count
        if heads[slot].count <= keptBytes {
            heads[slot] += bytes.prefix(keptBytes + 1 - heads[slot].count)
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return true }
        defer { heads[slot].removeAll(keepingCapacity: true) }
        let arrived = now()
        guard let head = FrameHead(heads[slot]) else { return true }
        switch head.type {
        case "frame":
            tallies[slot].frames += 1
            if let at = head.at { tallies[slot].latenciesMs.append(arrived * 1000 - Double(at)) }
            if let tick = head.tick {
                tallies[slot].ticks.saw(tick: tick, at: arrived)
                if options.settle { settleWatches[slot].frame(tick: tick) }
            }
        case "stats" where options.settle:
            // More than keptBytes were kept when the message is longer than a stats message can be.
            if let stats = RoomStats(heads[slot]), settleWatches[slot].stats(stats, now: arrived) {
                tallies[slot].settledAfter = arrived - startedAt
                return false
            }
        case "error":
            tallies[slot].errors += 1
        default:
            break
        }
        return true
    }
}

/// libwebsockets' client callback: finds the `LoadClients` through the context's user pointer.
func loadClientCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                        _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let opaque = lws_context_user(context) else { return 0 }
    return Unmanaged<LoadClients>.fromOpaque(opaque).takeUnretainedValue()
        .handle(wsi: wsi, reason: reason, input: input, length: length)
}
