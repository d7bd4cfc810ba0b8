import Dispatch
import LayoutCore

/// A cluster's rooms before their owner is known: made pending (claimed once a departure
/// under way ended), and let in when another server places one here. The cluster carries out
/// the rest (LayoutCluster's `ClusterNode+Rooms`).
extension RoomHost {
    /// A cluster's room in memory with no layout yet, handed to `claim` once an unload or
    /// forgetting of it under way here ended (its last state written or deleted, its lease
    /// given back). Not waited for on this thread: that may wait on Redis.
    package func openPending(_ name: RoomName, proposing access: RoomAccess?,
                             then claim: @escaping @Sendable (Room) -> Void) -> Room {
        // Its history in the cluster's Redis (a stream only the lease holder writes to).
        let history = RoomHistory(bounds: limits.history, sink: cluster?.historySink(for: name))
        let room = Room(pendingName: name, replay: limits.replay, history: history, changed: changed)
        room.proposedAccess.withLock { $0 = access }
        rooms[name] = room
        if let closing = closing.removeValue(forKey: name) {
            closing.notify(queue: .global()) { claim(room) }
        } else {
            claim(room)
        }
        return room
    }

    /// Room `name`, placed here by another server, is let in the registry (within
    /// `--max-rooms`: a room nobody is in makes way); false: it cannot be.
    package func makeRoom(for name: RoomName, now: Double) -> Bool {
        if registry.adopt(name, now: now) { return true }
        refreshRegistry(now: now)
        guard let way = registry.makeWay(now: now) else { return false }
        carryOut(way, because: "to make way for room \(name), placed here by another server (--max-rooms)")
        return registry.adopt(name, now: now)
    }
}
