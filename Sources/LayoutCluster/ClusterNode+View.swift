import Foundation
import LayoutCore
import LayoutRooms

/// The cluster as its servers describe themselves every second (`NodeSummary`, `ClusterView`).
extension ClusterNode {
    /// The cluster as the servers' last summaries describe it.
    package var view: ClusterView { viewBox.withLock { $0.view } }

    /// Every second, from the service thread: this server's summary goes to Redis, and the
    /// others' come back as the cluster's view.
    ///
    /// `fl:nodes` is scored by the servers' clocks (ms since 1970): names scored within the
    /// lease period before now, or up to `futureSkew` ahead (a server whose clock runs ahead),
    /// are read; names scored further ahead are removed (no server wrote them), as are names
    /// silent for a minute. What is read is checked as `ClusterView.reported` says.
    package func report(_ summary: NodeSummary) {
        // Draining: off the list (`beginDraining`), so no new room is placed here.
        guard !state.withLock({ $0.draining }) else { return }
        let now = Int(Date().timeIntervalSince1970 * 1000)
        heartbeat.submit(.init([
            RedisCommand.words("SET", ClusterKeys.nodeSummary(name)) + [summary.encoded]
                + RedisCommand.words("PX", String(LeasePolicy.milliseconds)),
            RedisCommand.words("ZADD", ClusterKeys.nodes, String(now), name),
            RedisCommand.words("ZREMRANGEBYSCORE", ClusterKeys.nodes, "-inf", String(now - 60_000)),
            RedisCommand.words("ZREMRANGEBYSCORE", ClusterKeys.nodes, "(\(now + Self.futureSkew)", "+inf"),
            RedisCommand.words("ZRANGEBYSCORE", ClusterKeys.nodes, String(now - LeasePolicy.milliseconds),
                               String(now + Self.futureSkew), "LIMIT", "0", String(WireBounds.nodes)),
        ]) { [self] result in
            guard case .success(let replies) = result, case .array(let items)? = replies.last else { return }
            let names = items.compactMap(\.text).filter(NodeName.isValid)
            guard !names.isEmpty else { return }
            heartbeat.submit(.init(names.flatMap { name in
                [RedisCommand.words("GET", ClusterKeys.nodeSummary(name)), RedisCommand.words("PTTL", ClusterKeys.nodeSummary(name))]
            }) { [self] result in
                guard case .success(let replies) = result, replies.count == 2 * names.count else { return }
                let entries = names.indices.map { index -> (name: String, bytes: [UInt8]?, ttl: Int?) in
                    guard case .integer(let ttl) = replies[2 * index + 1] else { return (names[index], nil, nil) }
                    return (names[index], replies[2 * index].bytes, ttl)
                }
                let (view, refused) = ClusterView.reported(entries)
                let newlyRefused = viewBox.withLock { box -> [String] in
                    let now = Uptime.seconds()
                    box.view = view
                    box.placed.removeAll { $0.until < now }
                    for placed in box.placed { box.view.assume(placed.room, at: placed.node) }
                    defer { box.refused = Set(refused) }
                    return refused.filter { !box.refused.contains($0) }
                }
                for why in newlyRefused {
                    logger.error("ignored in Redis: \(why) (no server wrote it: whoever can write to this Redis controls the cluster)")
                }
            })
        })
    }

    /// How far ahead of this server's clock another's may run and still be seen (ms).
    static let futureSkew = 60_000

    /// A room this server placed on another turned out to have an owner already: it is not
    /// counted there.
    func unplace(_ room: RoomName) {
        viewBox.withLock { box in
            box.placed.removeAll { $0.room == room }
            box.view.forget(room)
        }
    }
}

extension ClusterNode {
    /// How many rooms this server steps (their leases held) and relays, now (`/metrics`).
    package var routeCounts: (leases: Int, relays: Int) {
        state.withLock { state in
            let relays = state.routes.values.reduce(0) { count, route in
                if case .relay = route { count + 1 } else { count }
            }
            return (state.leases.held.count, relays)
        }
    }
}
