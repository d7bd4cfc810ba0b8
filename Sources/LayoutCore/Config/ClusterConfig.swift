/// `serve --redis URL [--node NAME]`: this server joins the cluster sharing that Redis.
public struct ClusterConfig: Sendable, Equatable {
    public var redis: RedisAddress
    /// Unique in the cluster; it ends every client id handed out here (`c12@NAME`).
    public var node: String

    public init(redis: RedisAddress, node: String) {
        self.redis = redis
        self.node = node
    }

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
}
