import Dispatch

/// The rooms' part in a cluster (`--redis`): a room claimed here and stepped from the state
/// Redis holds (or taken over from a server that stopped), placed here by another server, or
/// lost to another; and what this server tells the others of its rooms.
extension RoomHost {
    /// This server took the lease of `name` (`ClusterNotice.won`): it steps the room from the
    /// state Redis holds (none: a new room). A room it relayed until now (a failover) goes on
    /// from what its clients saw: the same event numbering, ticks and frame serials on, a
    /// membership version above theirs, then a `failover` event and the room's data for every
    /// client (the state may lack the last second's changes). False when the state is unusable
    /// (the room's clients are then turned away).
    /// `members`: the ids of the room's clients here; `deliver` hands a message to each.
    func won(_ name: RoomName, _ claim: Claim, members: [String], deliver: (OutgoingMessage) -> Void) -> Bool {
        guard let cluster else { return false }
        guard let room = rooms[name], room.role.isPending || room.mirror != nil else {
            cluster.drop(name)  // the room left meanwhile: its lease goes back
            return false
        }
        let saved: SavedState?
        switch claim.state ?? claim.decoded(name) {
        case .success(let state):
            saved = state
        case .failure(let error):
            logger.error("room \(name): its state in Redis is unusable (\(error)); the room is not served")
            cluster.drop(name)
            return false
        }
        // A room taken over or loaded from Redis holds what it holds: it must fit in the total
        // (idle rooms make room), else it is not served here and its lease goes back.
        let reserved = saved?.layout.cells.count ?? 0
        guard reserve(reserved, for: name, now: Uptime.seconds()) else {
            logger.error("room \(name): its \(reserved) cells do not fit under --max-total-cells \(budget.limit) (\(budget.total) in memory, and no idle room can be unloaded); the room is not served here")
            cluster.drop(name)
            return false
        }
        let replicator = install(in: room, name, saved: saved, cluster: cluster)
        budget.force(room.cellCount - reserved)
        let gone = replicator.adopt(roster: claim.roster, node: cluster.name, gone: claim.previous)
        for client in members { _ = replicator.joined(client, on: cluster.name, local: true) }
        if claim.previous != nil {
            announceFailover(of: room, previous: claim.previous, leftBehind: gone, replicator: replicator, deliver: deliver)
        }
        pool.add(room)
        cluster.own(room, replicator: replicator)
        logger.info("room \(name) \(claim.previous != nil ? "taken over" : saved == nil ? "created" : "loaded from Redis"): stepped here (\(rooms.count) in memory)")
        return true
    }

    /// Gives `room` its replicator and a layout stepped from `saved` (none: a new room) that
    /// goes on from what the room's clients saw while it was relayed; returns the replicator.
    private func install(in room: Room, _ name: RoomName, saved: SavedState?, cluster: ClusterNode) -> RoomReplicator {
        let mirror = room.mirror
        let seen = room.status.current
        let lastSerial = mirror?.lastSerial ?? 0
        let replicator = cluster.replicator(for: name)
        let destination = RedisStateDestination(room: name, node: cluster.name, redis: cluster.redis, logger: logger)
        let parts = layoutParts(name, saved: saved)
        let limits = limits, budget = budget
        room.install(replicator: replicator) {
            let keeper = StateKeeper(saver: StateSaver(destination), ids: parts.ids, closed: nil)
            let simulation = parts.simulation()
            simulation.resume(tick: seen.tick, after: seen.version)
            let state = LayoutState(simulation: simulation, limits: limits, budget: budget,
                                    settled: parts.saved?.settled, catalog: parts.saved?.catalog ?? CellCatalog())
            var layout = RoomLayout(state: state, keeper: keeper)
            layout.continueFrames(after: lastSerial)
            return layout
        }
        return replicator
    }

    /// After a failover, before the room's first turn here: the clients of the dead server
    /// left, the room moved, and everyone gets its data as of now.
    private func announceFailover(of room: Room, previous: String?, leftBehind: [String], replicator: RoomReplicator,
                                  deliver: (OutgoingMessage) -> Void) {
        for client in leftBehind { room.presence(.left, of: client) }
        room.bus.publish(LayoutEvent(kind: .failover, by: nil, tick: room.status.current.tick,
                                     detail: .failover(node: cluster?.name ?? "", previous: previous,
                                                       pinned: room.status.current.pinned)))
        let data = room.dataMessage()
        let through = room.bus.nextSeq - 1
        replicator.answerData(through: through, message: data?.bytes, everyone: true)
        if let data { deliver(data) }
        room.announce()
    }

    /// Another server placed new room `name` here (`NodeMessage.adopt`): it is made and
    /// claimed, with no client here yet (within `--max-rooms`: a room nobody is in makes way).
    func adopt(_ name: RoomName, now: Double) {
        guard let cluster, rooms[name] == nil else { return }
        if !registry.adopt(name, now: now) {
            refreshRegistry(now: now)
            guard let way = registry.makeWay(now: now) else { return }
            carryOut(way, because: "to make way for room \(name), placed here by another server (--max-rooms)")
            guard registry.adopt(name, now: now) else { return }
        }
        _ = openPending(name) { cluster.claimHere($0) }
    }

    /// A cluster's room in memory with no layout yet, handed to `claim` once an unload or
    /// forgetting of it under way here ended (its last state written or deleted, its lease
    /// given back). Not waited for on this thread: that may wait on Redis.
    func openPending(_ name: RoomName, then claim: @escaping @Sendable (Room) -> Void) -> Room {
        let room = Room(pendingName: name, replay: limits.replay, changed: changed)
        rooms[name] = room
        if let closing = closing.removeValue(forKey: name) {
            closing.notify(queue: .global()) { claim(room) }
        } else {
            claim(room)
        }
        return room
    }

    /// What this server says of itself to the cluster (`NodeSummary`).
    func summary(node: String, clients: Int, uptimeSeconds: Int) -> NodeSummary {
        var owned: [NodeSummary.OwnedRoom] = []
        var relayed = 0
        for (name, room) in rooms {
            switch room.role {
            case .owner:
                let status = room.status.current
                owned.append(.init(name: name.description, clients: room.clients, cells: status.cells,
                                   settled: status.settled, tick: status.tick))
            case .relay:
                relayed += 1
            case .local, .pending, .loading:
                break
            }
        }
        return NodeSummary(node: node, clients: clients, rooms: owned.sorted { $0.name < $1.name }, relayed: relayed,
                           uptimeSeconds: uptimeSeconds)
    }

    /// Redis restarted empty and this server took its room's lease again: the room's state,
    /// its frame's copy and its status go to Redis anew.
    func reacquired(_ name: RoomName) {
        guard let room = rooms[name], room.replicator != nil else { return }
        request(.republish, of: room)
    }

    /// Another server holds the lease of a room stepped here: the room stops here (nothing
    /// is written: the lease fences the state in Redis). Returns the room, whose clients must
    /// start again.
    func lost(_ name: RoomName) -> Room? {
        guard rooms[name]?.replicator != nil, let room = takeOut(name) else { return nil }
        registry.failed(name)
        cluster?.drop(name)
        room.abandon()
        return room
    }
}
