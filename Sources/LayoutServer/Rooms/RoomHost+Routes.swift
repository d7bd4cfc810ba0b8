/// Which route serves a room now (`RoomRoute`), from its role.
extension RoomHost {
    /// `linked`: whether this server last heard Redis reachable (a relayed room's commands need
    /// it). A room waiting for its file or its owner is routed as a local one: none of its
    /// clients has had its `hello` (`ConnectionLife`), and one left behind by a room given up
    /// finds it gone.
    func route(of room: Room, linked: Bool) -> RoomRoute {
        let local = LocalRoute(room: room, host: self)
        switch room.role {
        case .local, .pending, .loading:
            return local
        case .owner(let replicator):
            return cluster.map { OwnerRoute(local: local, replicator: replicator, node: $0.name) } ?? local
        case .relay(let mirror):
            return cluster.map { RelayRoute(room: room, mirror: mirror, cluster: $0, linked: linked) } ?? local
        }
    }
}
