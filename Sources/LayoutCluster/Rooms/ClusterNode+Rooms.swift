import Dispatch
import LayoutCore
import LayoutRooms

/// The rooms' part in a cluster (`--redis`): a room claimed here and stepped from the state
/// Redis holds (or taken over from a server that stopped), placed here by another server, or
/// lost to another; and what this server tells the others of its rooms. The service thread
/// calls these with its rooms (`host`) as `ClusterNotice`s come.
extension ClusterNode {
    /// This server took the lease of `name` (`ClusterNotice.won`): it steps the room from the
    /// state Redis holds (none: a new room). A room it relayed until now (a failover) goes on
    /// from what its clients saw: the same event numbering, ticks and frame serials on, a
    /// membership version above theirs; what relays asked of the room and the old owner never
    /// took is applied; then comes a `failover` event and the room's data for every client
    /// (the state may lack the last second's changes). A client thus has the answer to what it
    /// sent before the failover before the event, or never (the old owner took it and died),
    /// unless a relay passed it on after this server took the list. False when the state is
    /// unusable (the room's clients are then turned away).
    /// `members`: the room's clients here (and whether each reads text).
    package func won(_ name: RoomName, _ claim: Claim, in host: RoomHost, members: [(client: String, readsText: Bool)]) -> Bool {
        guard let room = host.rooms[name], room.role.isPending || room.mirror != nil else {
            drop(name)  // the room left meanwhile: its lease goes back
            return false
        }
        let saved: SavedState?
        switch claim.state ?? claim.decoded(name) {
        case .success(let state):
            // A room its owner deleted is no room: a new one is made in its place.
            saved = state?.access.deleted == true ? nil : state
        case .failure(let error):
            logger.error("room \(name): its state in Redis is unusable (\(error)); the room is not served")
            drop(name)
            return false
        }
        // A room taken over or loaded from Redis holds what it holds: it must fit in the total
        // (idle rooms make room), else it is not served here and its lease goes back.
        let reserved = saved?.layout.cells.count ?? 0
        guard host.reserve(reserved, for: name, now: Uptime.seconds()) else {
            logger.error("room \(name): its \(reserved) cells do not fit under --max-total-cells \(host.budget.limit) (\(host.budget.total) in memory, and no idle room can be unloaded); the room is not served here")
            drop(name)
            return false
        }
        let replicator = install(in: room, of: host, saved: saved, failover: claim.previous != nil)
        host.budget.force(room.cellCount - reserved)
        let gone = replicator.adopt(roster: claim.roster, node: self.name, gone: claim.previous)
        for member in members {
            _ = replicator.joined(member.client, on: self.name, local: true, readsText: member.readsText)
        }
        // Connections here that were relayed sent their earlier commands through Redis: those
        // go first (`CommandQueue`), then the failover is told (`TurnRequest.failover`).
        room.commands.hold()
        host.pool.add(room)
        own(room, replicator: replicator) { [self] in
            room.commands.release()
            if let previous = claim.previous {
                room.requests.push(.failover(node: self.name, previous: previous, leftBehind: gone))
            }
            wakeRoom.withLock { $0 }?(room)
        }
        if claim.previous != nil { ClusterMetrics.failovers.increment() }
        logger.info("room \(name) \(claim.previous != nil ? "taken over" : saved == nil ? "created" : "loaded from Redis"): stepped here (\(host.rooms.count) in memory)")
        return true
    }

    /// Gives `room` its replicator and a layout stepped from `saved` (none: a new room) that
    /// goes on from what the room's clients saw while it was relayed; returns the replicator.
    private func install(in room: Room, of host: RoomHost, saved: SavedState?, failover: Bool) -> RoomReplicator {
        let seen = room.status.current
        let lastSerial = room.mirror?.lastSerial ?? 0
        let replicator = replicator(for: room.name)
        let destination = RedisStateDestination(room: room.name, node: self.name, redis: redis, logger: logger)
        let parts = host.layoutParts(room.name, saved: saved)
        let limits = host.limits, budget = host.budget
        // A new room is made with the access its creator's server proposed (an adopting server
        // of an older build proposes none: the room is then made without links).
        let access = saved?.access ?? room.proposedAccess.withLock { $0 } ?? RoomAccess(mode: host.defaultAccess)
        room.install(replicator: replicator) {
            let keeper = StateKeeper(saver: StateSaver(destination), ids: parts.ids, closed: nil)
            let simulation = parts.simulation()
            simulation.resume(tick: seen.tick, after: seen.version)
            let state = LayoutState(simulation: simulation, limits: limits, budget: budget,
                                    settled: parts.saved?.settled, catalog: parts.saved?.catalog ?? CellCatalog(),
                                    access: access, ownership: Ownership(runs: parts.saved?.owners ?? []))
            var layout = RoomLayout(state: state, keeper: keeper)
            layout.continueFrames(after: lastSerial, failover: failover)
            return layout
        }
        return replicator
    }

    /// Another server placed new room `name` here (`NodeMessage.adopt`): it is made and
    /// claimed, with no client here yet (within `--max-rooms`: a room nobody is in makes way).
    package func adopt(_ name: RoomName, access: RoomAccess?, in host: RoomHost, now: Double) {
        guard host.rooms[name] == nil, host.makeRoom(for: name, now: now) else { return }
        _ = host.openPending(name, proposing: access) { [self] in claimHere($0) }
    }

    /// What this server says of itself to the cluster (`NodeSummary`).
    package func summary(of host: RoomHost, clients: Int, uptimeSeconds: Int) -> NodeSummary {
        var owned: [NodeSummary.OwnedRoom] = []
        var relayed = 0
        for (name, room) in host.rooms {
            switch room.role {
            case .owner:
                let status = room.status.current
                owned.append(.init(name: name.description, clients: room.clients, cells: status.cells,
                                   settled: status.settled, tick: status.tick, access: room.access.current.access.mode))
            case .relay:
                relayed += 1
            case .local, .pending, .loading:
                break
            }
        }
        return NodeSummary(node: self.name, clients: clients, rooms: owned.sorted { $0.name < $1.name }, relayed: relayed,
                           uptimeSeconds: uptimeSeconds)
    }

    /// Redis restarted empty and this server took its room's lease again: the room's state,
    /// its frame's copy and its status go to Redis anew.
    package func reacquired(_ name: RoomName, in host: RoomHost) {
        guard let room = host.rooms[name], room.replicator != nil else { return }
        host.request(.republish, of: room)
    }

    /// Another server holds the lease of a room stepped here: the room stops here (nothing
    /// is written: the lease fences the state in Redis). Returns the room, whose clients must
    /// start again.
    package func lost(_ name: RoomName, in host: RoomHost) -> Room? {
        guard host.rooms[name]?.replicator != nil, let room = host.takeOut(name) else { return nil }
        host.registry.failed(name)
        drop(name)
        room.abandon()
        return room
    }
}
