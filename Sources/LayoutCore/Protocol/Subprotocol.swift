/// The WebSocket subprotocols the server speaks: `forcelayout.v1` (every message JSON text)
/// and `forcelayout.v2` (the same, but `frame` is binary: `BinaryFrameEncoder`). A client
/// that offers both gets the one it lists first (RFC 6455: the offer is in the client's order
/// of preference; libwebsockets binds the first name of it that it knows, and gives us no way
/// to rewrite the offer), so clients that want v2 list it first, as the page does.
public enum Subprotocol: String, CaseIterable, Sendable {
    case v1 = "forcelayout.v1"
    case v2 = "forcelayout.v2"
}
