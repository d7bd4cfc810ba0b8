import CLibWebSockets

/// The protocol callback libwebsockets calls on the service thread. A C function pointer
/// cannot capture, so it finds the server through the context's user pointer.
func layoutProtocolCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                            _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let opaque = lws_context_user(context) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    let server = Unmanaged<Server>.fromOpaque(opaque).takeUnretainedValue()
    return server.handle(wsi: wsi, reason: reason, user: user, input: input, length: length)
}

/// The first protocol's callback: libwebsockets reports every connection's accept, raw
/// fallback and destruction there.
func connectionCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                        _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let opaque = lws_context_user(context) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    let server = Unmanaged<Server>.fromOpaque(opaque).takeUnretainedValue()
    return server.handleConnection(wsi: wsi, reason: reason, user: user, input: input, length: length)
}
