/// The protocol a load client asks for: v1 (every message JSON text) or v2 (frames as binary
/// messages with a fixed head, everything else as in v1), by its WebSocket subprotocol.
public enum WireProtocol: Int, Sendable, CaseIterable {
    case v1 = 1
    case v2 = 2

    public var subprotocol: String { "forcelayout.v\(rawValue)" }
}
