import CLibWebSockets

/// Wakes the lws service thread from any other thread.
///
/// `@unchecked Sendable`: it holds the context pointer only to call `lws_cancel_service`,
/// the one libwebsockets call documented as safe from a foreign thread.
struct ServiceWaker: @unchecked Sendable {
    let context: OpaquePointer

    func wake() { lws_cancel_service(context) }
}
