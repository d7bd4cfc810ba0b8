/// Wakes the service thread from any other thread. The server makes it of libwebsockets'
/// `lws_cancel_service`, the one libwebsockets call documented as safe from a foreign thread
/// (`Server.start`); the rooms and the cluster only ever call `wake`.
package struct ServiceWaker: Sendable {
    private let action: @Sendable () -> Void

    package init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    package func wake() { action() }
}
