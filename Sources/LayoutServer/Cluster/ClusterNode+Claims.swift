import Dispatch

/// Where a room a client asks for is stepped: claimed here, placed on the server stepping the
/// fewest rooms, or taken over from an owner that stopped renewing its lease.
extension ClusterNode {
    /// A client here wants `room`, which has no owner known here. A room with an owner is
    /// relayed; a new one goes to the server stepping the fewest rooms (`ClusterView.placement`):
    /// this one takes its lease, another is asked to (`NodeMessage.adopt`) and relayed, and if
    /// that server has not taken it within 2 s, this one does.
    func claim(_ room: Room) {
        let target = viewBox.withLock { box in
            let target = box.view.placement(for: name)
            box.view.assume(room.name, at: target)
            box.placed.append((room.name, target, Uptime.seconds() + 5))
            return target
        }
        guard target != name else { return claimHere(room) }
        let keys = ClusterKeys(room.name)
        redis.submit(.init([
            RedisCommand.words("GET", keys.lease),
            RedisCommand.words("PUBLISH", ClusterKeys.node(target)) + [NodeMessage.adopt(room.name).encoded],
        ]) { [self] result in
            guard case .success(let replies) = result, replies.count == 2 else { return claimHere(room) }
            if let owner = replies[0].text {
                // It had an owner after all (and the adopt message is ignored there).
                unplace(room.name)
                if !room.isGone.load(ordering: .acquiring) { relay(room, owner: owner) }
            } else if replies[1] == .integer(0) {
                claimHere(room)  // nobody listens on that server's channel: it is gone
            } else {
                if !room.isGone.load(ordering: .acquiring) { relay(room, owner: target) }
                queue.asyncAfter(deadline: .now() + 2) { [self] in
                    guard room.mirror?.isLive == false, !room.isGone.load(ordering: .acquiring) else { return }
                    logger.warning("room \(room.name): \(target) did not take it in 2 s; stepping it here")
                    claimHere(room)
                }
            }
        })
    }

    /// Takes the lease of `room` if it is free, else relays its owner.
    func claimHere(_ room: Room) {
        let keys = ClusterKeys(room.name)
        redis.submit(.init([
            RedisCommand.words("SET", keys.lease, name, "NX", "PX", String(LeasePolicy.milliseconds)),
            RedisCommand.words("GET", keys.lease),
        ] + Claim.reads(room.name)) { [self] result in
            guard case .success(let replies) = result, replies.count == 4 else {
                // Redis is away: try again shortly (the joiners wait, up to their deadline).
                queue.asyncAfter(deadline: .now() + 0.5) { [self] in
                    if !room.isGone.load(ordering: .acquiring) { claimHere(room) }
                }
                return
            }
            if replies[0].isOK || replies[1].text == name {
                state.withLock { $0.leases.acquired(room.name, now: Uptime.seconds()) }
                postWon(room.name, Claim(replies[2...], previous: nil))
            } else if !room.isGone.load(ordering: .acquiring), room.mirror == nil {
                unplace(room.name)
                relay(room, owner: replies[1].text ?? "")
            }
        })
    }

    /// The owner of a relayed room stopped renewing its lease: take it, if Redis holds the
    /// room's state (a Redis that restarted empty has none, and the owner, if alive, takes
    /// its lease again and writes it: see `renew`).
    func tryTakeover(_ room: RoomName) {
        let keys = ClusterKeys(room)
        redis.submit(.init([
            RedisCommand.eval(Self.takeoverScript, keys: [keys.lease, ClusterKeys.state(room)],
                              arguments: RedisCommand.words(name, String(LeasePolicy.milliseconds))),
        ] + Claim.reads(room)) { [self] result in
            guard case .success(let replies) = result, replies.count == 3 else { return }
            if replies[0] == .integer(2) {
                logger.warning("room \(room): its lease had no expiry, as no server sets one (it was set by hand); given \(LeasePolicy.milliseconds) ms, after which a server takes the room unless its holder renews it")
            }
            guard replies[0] == .integer(1) else { return }
            let previous = state.withLock { state -> String?? in
                guard case .relay(let mirror)? = state.routes[room] else { return nil }
                state.leases.acquired(room, now: Uptime.seconds())
                return .some(mirror.owner.isEmpty ? nil : mirror.owner)
            }
            guard let previous else {
                // The room left this server meanwhile: the lease goes back.
                redis.submit(.init([Self.releaseScript(keys, node: name)]))
                return
            }
            logger.warning("room \(room): \(previous ?? "its owner") stopped renewing its lease; stepping it here")
            postWon(room, Claim(replies[1...], previous: previous))
        })
    }

    /// The service thread gets a claim with its state decoded on another thread (neither it nor
    /// a Redis connection's thread waits for a large room's state to be read and checked).
    private func postWon(_ room: RoomName, _ claim: Claim) {
        let notices = notices
        DispatchQueue.global(qos: .userInitiated).async {
            var claim = claim
            claim.state = claim.decoded(room)
            notices.post(.won(room, claim))
        }
    }
}

extension Claim {
    /// What a server that takes a room's lease reads of it in the same batch: its state, and
    /// its clients everywhere (`ClusterKeys.clients`).
    static func reads(_ room: RoomName) -> [[[UInt8]]] {
        [RedisCommand.words("GET", ClusterKeys.state(room)), RedisCommand.words("HGETALL", ClusterKeys(room).clients)]
    }

    /// From the replies to `reads`. The roster keeps only client ids on servers' names (at most
    /// `WireBounds.clients`): anything else in the hash was not written by a server.
    init(_ replies: ArraySlice<RedisReply>, previous: String?) {
        var roster: [String: String] = [:]
        for (client, node) in replies[replies.startIndex + 1].fields where roster.count < WireBounds.clients.upperBound {
            guard let node = String(validating: node, as: UTF8.self), ClusterConfig.validNodeName(node),
                  WireBounds.validClientID(client) else { continue }
            roster[client] = node
        }
        self.init(saved: replies[replies.startIndex].bytes, previous: previous, roster: roster)
    }
}
