/// Everything `forcelayout serve` is told on its command line.
public struct ServerConfig: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Absolute path of the folder served at `/`.
    public var publicDirectory: String
    /// Room `main`'s state file (`--state`), which wins over `stateDirectory` for it.
    public var statePath: String?
    /// One state file per room, `NAME.json` (`--state-dir`).
    public var stateDirectory: String?
    /// Seconds after its last client left that a room with no cells is forgotten.
    public var roomForgetSeconds = 60
    /// Seconds a room without a file (no `--state-dir`) must have been empty before it may be
    /// evicted, its cells lost, to make way for another at `--max-rooms`.
    public var roomEvictSeconds = 60
    /// Seconds a forgotten room's file is kept aside in `.forgotten/` before it is deleted.
    public var forgottenRetentionSeconds: Double = 7 * 86_400
    /// Threads that step every room (`--step-threads`; nil: one per core).
    public var stepThreads: Int?
    public var limits = Limits()
    /// Which pages' WebSocket handshakes are served (see `OriginPolicy`).
    public var originPolicy = OriginPolicy.sameSite
    public var seed: UInt64?
    /// The cluster this server joins (`--redis`, `--node`); nil: on its own.
    public var cluster: ClusterConfig?
    /// Seconds a stop (SIGTERM, SIGINT) may take at most (`--drain-seconds`, `DrainPlan`): in
    /// a cluster, moving the clients and handing the rooms to other servers; closing every
    /// client left with 1012 and waiting for their close frames. The rooms' states are
    /// written after it.
    public var drainSeconds = 10
    /// Seconds of silence before a ping, and before a connection is dropped.
    public var pingAfterSeconds: UInt16 = 30
    public var hangUpAfterSeconds: UInt16 = 60
    /// The access of rooms made from now on (`--default-access`); nil: `open` when listening
    /// on loopback only, `view` otherwise (`defaultAccess`).
    public var chosenAccess: AccessMode?
    /// The admin token's digest (`AdminToken`); nil: there is no admin.
    public var adminToken: SecretDigest?
    /// TLS on the port (`--tls-cert`, `--tls-key`: PEM files): https and wss; nil: plain.
    public var tls: (certificate: String, key: String)?

    /// The access of a room made from now on.
    public var defaultAccess: AccessMode { chosenAccess ?? (originPolicy.loopbackOnly ? .open : .view) }

    public init(publicDirectory: String) { self.publicDirectory = publicDirectory }
}
