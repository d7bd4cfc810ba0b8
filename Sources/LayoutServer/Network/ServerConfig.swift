/// Everything `forcelayout serve` is told on its command line.
public struct ServerConfig: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Absolute path of the folder served at `/`.
    public var publicDirectory: String
    public var statePath: String?
    public var limits = Limits()
    /// Which pages' WebSocket handshakes are served (see `OriginPolicy`).
    public var originPolicy = OriginPolicy.sameSite
    public var seed: UInt64?
    /// Seconds of silence before a ping, and before a connection is dropped.
    public var pingAfterSeconds: UInt16 = 30
    public var hangUpAfterSeconds: UInt16 = 60

    public init(publicDirectory: String) { self.publicDirectory = publicDirectory }
}
