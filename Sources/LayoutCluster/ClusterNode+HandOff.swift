import Dispatch
import LayoutCore
import LayoutRooms

/// Draining a server of a cluster (SIGTERM): it stops being offered rooms, and hands each room
/// it steps to a server relaying it, which takes it from the state just written, with no lease
/// to wait out (a server that dies leaves its rooms to be taken once its lease runs out).
extension ClusterNode {
    /// Takes no room over and adopts none from now on, and leaves the servers' list at once, so
    /// the others place no new room here (`ClusterView.placement`).
    package func beginDraining() {
        state.withLock { $0.draining = true }
        redis.submit(.init([RedisCommand.words("DEL", ClusterKeys.nodeSummary(name)),
                            RedisCommand.words("ZREM", ClusterKeys.nodes, name)]))
    }

    /// Hands `room` off (on a thread that may wait: the room host's closer). No request of it is
    /// taken from now on; a round trip on the command connection lets those taken already
    /// arrive in its queue (the connection answers in order); `finish` applies them and writes
    /// the room's state under its lease; then the lease goes back, and the servers relaying
    /// the room hear of it on `ClusterKeys.handOffs` (after the release: one connection, in
    /// order). What relays ask meanwhile waits in Redis for the server that takes the room.
    package func handOff(_ room: Room, finishing finish: () -> Void) {
        let name = room.name
        state.withLock { _ = $0.handingOff.insert(name) }
        _ = redis.call([RedisCommand.words("PING")])
        finish()
        drop(name)
        _ = redis.call([Self.releaseScript(ClusterKeys(name), node: self.name),
                        RedisCommand.words("PUBLISH", ClusterKeys.handOffs) + [Array(name.description.utf8)]])
        state.withLock { _ = $0.handingOff.remove(name) }
        ClusterMetrics.handOffs.increment()
        logger.info("room \(name): handed off (its state written, its lease given back)")
    }

    /// A room's owner gave its lease back as it drains: if this server relays the room, it
    /// tries to take it now rather than at its next try.
    func handedOff(_ payload: [UInt8]) {
        guard let text = String(validating: payload, as: UTF8.self), let room = RoomName(text) else { return }
        guard case .relay? = state.withLock({ $0.routes[room] }) else { return }
        queue.async { [self] in tryTakeover(room, handedOff: true) }
    }
}
