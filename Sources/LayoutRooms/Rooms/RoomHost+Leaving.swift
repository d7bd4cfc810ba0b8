import Dispatch
import LayoutCore

/// Rooms leaving memory, as the registry decides (`RoomRegistry`): once a second the idle ones
/// (forgotten, or saved and unloaded), and when room is needed, those that make way for
/// another (`--max-rooms`) or for a loaded room's cells (`--max-total-cells`).
extension RoomHost {
    /// Takes `cells` from the total for a room coming into memory (loaded, or taken over in a
    /// cluster); when they do not fit, idle rooms are unloaded first to make room. False: they
    /// do not fit, and nothing was taken.
    package func reserve(_ cells: Int, for name: RoomName, now: Double) -> Bool {
        if budget.take(cells) { return true }
        refreshRegistry(now: now)
        for action in registry.makeWay(freeing: cells - (budget.limit - budget.total)) {
            carryOut(action, because: "to make room for the \(cells) cells of room \(name) (--max-total-cells)")
        }
        return budget.take(cells)
    }

    /// Once a second: the registry learns what each room says of itself, then forgets the
    /// empty rooms and unloads the idle settled ones it names.
    package func sweep(now: Double) {
        refreshRegistry(now: now)
        closing = closing.filter { $0.value.wait(timeout: .now()) == .timedOut }
        for action in registry.sweep(now: now) {
            switch action {
            case .forget(let name) where rooms[name]?.access.current.access.deleted == true:
                carryOut(action, because: "deleted by its owner")
            case .forget: carryOut(action, because: "empty since its last client left")
            case .unload, .evict: carryOut(action, because: "settled, no clients")
            }
        }
        if now >= nextPurge {
            nextPurge = now + 60
            let files = files, retention = forgottenRetention, logger = logger
            closer.async {
                for name in files.purgeForgotten(olderThan: retention) {
                    logger.info("deleted \(name): forgotten longer than --forgotten-retention-days")
                }
            }
        }
    }

    /// The registry learns what each room says of itself now (cells, settled), before it
    /// decides which rooms leave.
    func refreshRegistry(now: Double) {
        for (name, room) in rooms {
            let status = room.status.current
            // A room its owner deleted leaves as soon as nobody is in it, here and on relays.
            let deleted = room.access.current.access.deleted
            switch room.role {
            case .local:
                // A room whose writes fail (`unsaved`) stays: unloaded, it would lose what its
                // file lacks, and a later client would never be told.
                registry.update(name, cells: status.cells, settled: status.settled,
                                unloadable: files.path(for: name) != nil && status.unsaved != true, deleted: deleted)
            case .owner(let replicator):
                registry.update(name, cells: status.cells, settled: status.settled, deleted: deleted)
                registry.watched(name, elsewhere: replicator.remoteClients > 0, now: now)
            case .relay, .pending:
                // Nothing to keep: a relay lets go of an idle room whatever its layout does.
                registry.update(name, cells: status.cells, settled: true, budgeted: false, deleted: deleted)
            case .loading:
                // Its file holds cells (never forgotten: that would delete the file), not yet
                // counted in the total; left idle, it is unloaded (nothing to write) and stays on disk.
                registry.update(name, cells: 1, settled: true, budgeted: false)
            }
        }
    }

    /// A room leaves memory as the registry said (`RoomRegistry.SweepAction`).
    func carryOut(_ action: RoomRegistry.SweepAction, because why: String) {
        switch action {
        case .forget(let name):
            // Its state deleted off this thread, as an unload's is written: deleting it may wait
            // on Redis (stalled or away), and every connection here would wait with it.
            guard leave(name, doing: { $0.discard() }) else { return }
            logger.info("room \(name) forgotten: \(why)")
        case .unload(let name):
            guard leave(name, doing: { $0.close() }) else { return }
            logger.info("room \(name) saved and unloaded: \(why)")
        case .evict(let name):
            guard takeOut(name) != nil else { return }
            cluster?.drop(name)
            logger.warning("room \(name) evicted, its cells lost (no --state-dir to save it in): \(why)")
        }
    }

    /// Takes the room out and does `last` to it (its last write, or its deletion) on the closer
    /// queue, then gives its lease back; loading it again waits for that (`closing`).
    private func leave(_ name: RoomName, doing last: @escaping @Sendable (Room) -> Void) -> Bool {
        guard let room = takeOut(name) else { return false }
        let group = DispatchGroup()
        let cluster = cluster
        closer.async(group: group) {
            last(room)
            cluster?.drop(name)
        }
        closing[name] = group
        return true
    }

    /// Draining: in a cluster, this server takes no room over and adopts none from now on, and
    /// leaves the servers' list (`RoomCluster.beginDraining`). Whether it is in a cluster (else
    /// there is nobody to hand rooms to: they are saved as the server stops).
    package func beginDraining() -> Bool {
        guard let cluster else { return false }
        cluster.beginDraining()
        return true
    }

    /// The rooms stepped here (in a cluster: those this server holds the lease of).
    package var roomsSteppedHere: [RoomName] {
        rooms.compactMap { name, room in
            if case .owner = room.role { name } else { nil }
        }
    }

    /// Draining in a cluster: the room `name`, stepped here, goes to another server now: out of
    /// the pool at once (no step here after this) and handed off on the closer queue
    /// (`RoomCluster.handOff`: its last commands applied, its state written, its lease given
    /// back); `handingOff` says when all are, and the service thread is woken then. False if
    /// it is not stepped here (or there is no cluster).
    @discardableResult
    package func handOff(_ name: RoomName) -> Bool {
        guard let cluster, case .owner? = rooms[name]?.role, let room = takeOut(name) else { return false }
        let waker = waker
        closer.async(group: handingOff) {
            cluster.handOff(room) { room.finish() }
            waker?.wake()
        }
        return true
    }

    /// The room leaves memory (forgotten, unloaded, or stepped elsewhere now): out of the pool,
    /// its cells off the total, and whatever the cluster learns of it late given back.
    package func takeOut(_ name: RoomName) -> Room? {
        guard let room = rooms.removeValue(forKey: name) else { return nil }
        room.isGone.store(true, ordering: .releasing)
        pool.remove(room)
        budget.give(room.cellCount)
        return room
    }
}
