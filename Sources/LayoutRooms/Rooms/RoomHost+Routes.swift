/// Which route serves a room now (`RoomRoute`), from its role.
extension RoomHost {
    /// `linked`: whether this server last heard Redis reachable (a relayed room's commands need
    /// it). A room waiting for its file or its owner is routed as a local one: none of its
    /// clients has had its `hello` (`ConnectionLife`), and one left behind by a room given up
    /// finds it gone.
    package func route(of room: Room, linked: Bool) -> RoomRoute {
        let local = LocalRoute(room: room, host: self)
        switch room.role {
        case .local, .pending, .loading:
            return local
        case .owner, .relay:
            return cluster?.route(of: room, local: local, linked: linked) ?? local
        }
    }
}
