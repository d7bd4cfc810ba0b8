import CLibWebSockets

/// What the reading, slow and stalled clients see: connected, a message (counted by its head),
/// closed. With `rooms`, a reader first sends its room's set-up.
extension LoadClients {
    func handle(wsi: OpaquePointer, reason: lws_callback_reasons, input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard let opaque = lws_get_opaque_user_data(wsi) else { return 0 }
        guard case .client(let slot) = Peer(userData: opaque) else {
            return handleControl(wsi: wsi, reason: reason, input: input, length: length)
        }
        if usesRawClients { return handleRaw(slot: slot, wsi: wsi, reason: reason, input: input, length: length) }
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            established(slot: slot, wsi: wsi)
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
            if tallies[slot].slow { pace(slot: slot, wsi: wsi, bytes: length) }
        case LWS_CALLBACK_TIMER:
            lws_rx_flow_control(wsi, 1) // a slow reader's pause is over
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

    func established(slot: Int, wsi: OpaquePointer) {
        tallies[slot].connected = true
        if tallies[slot].stalled { lws_rx_flow_control(wsi, 0) }
        if !setUpQueues[slot].isEmpty { lws_callback_on_writable(wsi) }
    }

    /// A slow reader stops reading for as long as reading `bytes` takes at its pace.
    func pace(slot: Int, wsi: OpaquePointer, bytes: Int) {
        guard let pause = paces[slot]?.pause(afterReading: bytes), pause > 0 else { return }
        let time = now()
        let until = max(time, pausedUntil[slot] ?? time) + pause
        pausedUntil[slot] = until
        lws_rx_flow_control(wsi, 0)
        lws_set_timer_usecs(wsi, lws_usec_t(((until - time) * 1_000_000).rounded(.up)))
    }

    /// Counts a piece of a message, and the message once it is whole. False: leave now.
    func received(slot: Int, wsi: OpaquePointer, bytes: UnsafeRawBufferPointer) -> Bool {
        tallies[slot].bytes += bytes.count
        tallies[slot].messageBytes += bytes.count
        if heads[slot].count <= keptBytes {
            heads[slot] += bytes.prefix(keptBytes + 1 - heads[slot].count)
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return true }
        defer {
            heads[slot].removeAll(keepingCapacity: true)
            tallies[slot].messageBytes = 0
        }
        guard let head = FrameHead(heads[slot], binary: lws_frame_is_binary(wsi) != 0) else { return true }
        return counted(head, slot: slot, at: now())
    }

    /// Counts a whole message by its head. False: leave now.
    func counted(_ head: FrameHead, slot: Int, at arrived: Double) -> Bool {
        switch head.type {
        case "frame":
            tallies[slot].frames += 1
            if let at = head.at {
                if tallies[slot].slow {
                    ages.slow.record(arrived * 1000 - at)
                } else if tallies[slot].reads {
                    ages.readers.record(arrived * 1000 - at)
                }
            }
            paces[slot]?.frame(bytes: tallies[slot].messageBytes, tick: head.tick, madeAt: head.at)
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
