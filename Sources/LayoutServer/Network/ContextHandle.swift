import CLibWebSockets

/// The libwebsockets context, for the one call other threads may make with it
/// (`lws_cancel_service`, in `ServiceWaker`).
///
/// `@unchecked Sendable`: the pointer is only ever handed to `lws_cancel_service`, which
/// libwebsockets documents as safe from a foreign thread; everything else that takes the
/// context runs on the service thread.
struct ContextHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
