import LayoutCore

extension ClusterConfig {
    /// Why this server cannot join the cluster (nil: it can): Redis unreachable, or `node`
    /// taken by a running server. A server that cannot join at start-up does not start.
    public func joinProblem() -> String? { ClusterNode.check(redis, node: node) }
}
