/// `serve --redis URL [--node NAME]`: this server joins the cluster sharing that Redis.
public struct ClusterConfig: Sendable, Equatable {
    public var redis: RedisAddress
    /// Unique in the cluster; it ends every client id handed out here (`c12@NAME`).
    public var node: String

    public init(redis: RedisAddress, node: String) {
        self.redis = redis
        self.node = node
    }

    /// Why this server cannot join the cluster (nil: it can): Redis unreachable, or `node`
    /// taken by a running server. A server that cannot join at start-up does not start.
    public func joinProblem() -> String? { ClusterNode.check(redis, node: node) }

    /// Why these limits do not go with a cluster (nil: they do): the other servers refuse
    /// figures past `WireBounds` as forged, so a server must not be able to reach them.
    public static func limitsProblem(_ limits: Limits) -> String? {
        let checks: [(String, Int, ClosedRange<Int>)] = [
            ("--max-clients", limits.maxClients, WireBounds.clients), ("--max-rooms", limits.maxRooms, WireBounds.rooms),
            ("--max-cells", limits.maxCells, WireBounds.cells),
        ]
        for (option, value, bound) in checks where !bound.contains(value) {
            return "\(option) \(value) is past what a cluster's servers accept of each other (\(bound.upperBound)): see docs/cluster.md"
        }
        return nil
    }

    /// 1 to 32 of `a-z`, `0-9`, `-`, `_`, as room names (it appears in keys and client ids).
    public static func validNodeName(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count) && name.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
    }
}

/// The lease numbers: an owner renews every second a lease that lasts three, so two renewals
/// may fail (a slow Redis, a long pause) before another server may take the room; servers
/// relaying the room try to take it every half second, so a dead owner's room goes on
/// elsewhere 3 to 3.5 s after its last renewal, plus the time to load its state.
///
/// Renewals have a connection of their own (`ClusterNode.heartbeat`), so a backlog of frames
/// and requests never delays them; instead they stop when the service thread has not come
/// round for `silence` (it wakes at least every second): a server that is stuck, not merely
/// busy, gives its rooms up.
enum LeasePolicy {
    static let milliseconds = 3000
    static let renewEvery = 1.0
    static let takeoverEvery = 0.5
    static let silence = 2.0

    /// Lua, at the start of every script that reads a lease (`KEYS[1]`): a lease that would
    /// not run out as every server's does (no expiry: set by hand, or PERSISTed; or longer than
    /// the lease period) gets the lease period from now, and `repaired` is true. Unless its
    /// holder renews it, it then runs out and a server relaying the room takes it: a lease set
    /// by hand costs a room a failover, never its life.
    static let repairLua = """
        local repaired = false
        local ttl = redis.call('PTTL', KEYS[1])
        if ttl == -1 or ttl > \(milliseconds) then
          redis.call('PEXPIRE', KEYS[1], \(milliseconds))
          repaired = true
        end
        """
}
