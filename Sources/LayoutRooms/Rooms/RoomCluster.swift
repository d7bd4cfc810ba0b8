import LayoutCore

/// What the rooms ask of a cluster (`--redis`). LayoutCluster's `ClusterNode` is the one; the
/// rooms know nothing of Redis: a room is claimed, routed and given back through this.
package protocol RoomCluster: AnyObject, Sendable {
    /// This server's name in the cluster (it ends every client id handed out here).
    var name: String { get }
    /// Starts the cluster's threads; `wake` wakes an owned room's turn (`StepPool.wake`).
    func start(waker: ServiceWaker, wake: @escaping @Sendable (Room) -> Void)
    func stop()
    /// Finds out where a room new in memory here is stepped: here (`ClusterNotice.won`), or
    /// by another server, which this one then relays.
    func claim(_ room: Room)
    /// The room left this server: its lease goes back if this server holds it.
    func drop(_ name: RoomName)
    /// This server drains: it takes no room over, and is no longer offered new ones.
    func beginDraining()
    /// Draining: `room`, stepped here and out of the pool, goes to another server. Its requests
    /// under way arrive, `finish` applies them and writes its state, then its lease goes back
    /// and the servers relaying it are told to take it at once. Blocks (not the service thread).
    func handOff(_ room: Room, finishing finish: () -> Void)
    /// The route of a room this server owns or relays (`Room.role`'s `owner` or `relay`).
    func route(of room: Room, local: LocalRoute, linked: Bool) -> any RoomRoute
    /// Where a room's history is kept beside memory (LayoutCluster's Redis stream).
    func historySink(for room: RoomName) -> (any HistorySink)?
}

/// This server steps the room for the cluster: it hears what the room publishes and tells the
/// other servers (LayoutCluster's `RoomReplicator`).
package protocol RoomOwnerLink: RoomListener, AnyObject {
    /// The room's clients on other servers.
    var remoteClients: Int { get }
    /// Those of them that read frames' text form (v1 clients): the room writes it for them.
    var remoteTextReaders: Int { get }
    func attach(to room: Room)
}

/// Another server steps the room; this link fills it from what that server broadcasts
/// (LayoutCluster's `RoomMirror`).
package protocol RoomRelayLink: AnyObject, Sendable {
    /// In step with the owner: the room's connections may be served.
    var isLive: Bool { get }
    /// The room's clients on every server, as the owner last said.
    var clients: Int { get }
    /// The serial of the last frame had from the owner.
    var lastSerial: Int { get }
}
