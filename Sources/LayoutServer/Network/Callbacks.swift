import CLibWebSockets

/// The C callbacks libwebsockets calls on the service thread. A C function pointer cannot
/// capture, so each finds the server through the context's user pointer.
private func server(of wsi: OpaquePointer?) -> Server? {
    guard let wsi, let context = lws_get_context(wsi), let opaque = lws_context_user(context) else { return nil }
    return Unmanaged<Server>.fromOpaque(opaque).takeUnretainedValue()
}

/// The layout protocol's callback (and HTTP's, bound to it as the default protocol).
func layoutProtocolCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                            _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let server = server(of: wsi) else { return lws_callback_http_dummy(wsi, reason, user, input, length) }
    return server.handle(wsi: wsi, reason: reason, user: user, input: input, length: length)
}

/// The first protocol's callback: libwebsockets reports every connection's accept, raw
/// fallback and destruction there.
func connectionCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                        _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let server = server(of: wsi) else { return lws_callback_http_dummy(wsi, reason, user, input, length) }
    return server.handleConnection(wsi: wsi, reason: reason, user: user, input: input, length: length)
}
