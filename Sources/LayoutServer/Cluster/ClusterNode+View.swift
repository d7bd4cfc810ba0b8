import Foundation

/// The cluster as its servers describe themselves every second (`NodeSummary`, `ClusterView`).
extension ClusterNode {
    /// The cluster as the servers' last summaries describe it.
    var view: ClusterView { viewBox.withLock { $0.view } }

    /// Every second, from the service thread: this server's summary goes to Redis, and the
    /// others' come back as the cluster's view.
    func report(_ summary: NodeSummary) {
        let now = Int(Date().timeIntervalSince1970 * 1000)
        heartbeat.submit(.init([
            RedisCommand.words("SET", ClusterKeys.nodeSummary(name)) + [summary.encoded]
                + RedisCommand.words("PX", String(LeasePolicy.milliseconds)),
            RedisCommand.words("ZADD", ClusterKeys.nodes, String(now), name),
            RedisCommand.words("ZREMRANGEBYSCORE", ClusterKeys.nodes, "-inf", String(now - 60_000)),
            RedisCommand.words("ZRANGEBYSCORE", ClusterKeys.nodes, String(now - LeasePolicy.milliseconds), "+inf"),
        ]) { [self] result in
            guard case .success(let replies) = result, case .array(let items)? = replies.last else { return }
            let names = items.compactMap(\.text)
            guard !names.isEmpty else { return }
            heartbeat.submit(.init([RedisCommand.words("MGET") + names.map { Array(ClusterKeys.nodeSummary($0).utf8) }]) { [self] result in
                guard case .success(let replies) = result, case .array(let values)? = replies.first else { return }
                let nodes = values.compactMap { $0.bytes.flatMap(NodeSummary.decode) }
                viewBox.withLock { box in
                    let now = Uptime.seconds()
                    box.view = ClusterView(nodes: nodes)
                    box.placed.removeAll { $0.until < now }
                    for placed in box.placed { box.view.assume(placed.room, at: placed.node) }
                }
            })
        })
    }
}
