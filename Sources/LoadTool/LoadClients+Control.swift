import CLibWebSockets

/// The control connection: sends the set-up (adds, threshold 0) before measuring, and stops
/// the run if the server refuses any of it.
extension LoadClients {
    func handleControl(wsi: OpaquePointer, reason: lws_callback_reasons, input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            lws_callback_on_writable(wsi)
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            guard !controlQueue.isEmpty else { return 0 }
            guard send(controlQueue.removeFirst(), on: wsi) else { return stop("could not send the set-up") }
            if controlQueue.isEmpty { controlDone = true } else { lws_callback_on_writable(wsi) }
        case LWS_CALLBACK_CLIENT_RECEIVE:
            // The set-up's errors (a limit, a rate limit) would leave the layout unlike asked.
            if let input, lws_is_first_fragment(wsi) != 0, lws_frame_is_binary(wsi) == 0,
               let head = FrameHead(UnsafeRawBufferPointer(start: input, count: length)), head.type == "error" {
                _ = stop("the server refused the set-up: " + String(decoding: UnsafeRawBufferPointer(start: input, count: min(length, 300)), as: UTF8.self))
            }
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            _ = stop("cannot connect to \(options.url)" + (input.map { ": " + String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""))
        default:
            break
        }
        return 0
    }

    /// Ends the whole run (every shard) with `reason`.
    private func stop(_ reason: String) -> Int32 {
        controlError = reason
        schedule.stop(reason)
        finish()
        return -1
    }
}
