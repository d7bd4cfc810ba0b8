import LayoutRooms

extension ClusterNode {
    /// The route of a room this server steps for the cluster (`OwnerRoute`) or relays
    /// (`RelayRoute`); a room whose role holds anything else is served as a local one.
    package func route(of room: Room, local: LocalRoute, linked: Bool) -> any RoomRoute {
        switch room.role {
        case .owner(let replicator as RoomReplicator):
            OwnerRoute(local: local, replicator: replicator, node: name)
        case .relay(let mirror as RoomMirror):
            RelayRoute(room: room, mirror: mirror, cluster: self, linked: linked)
        default:
            local
        }
    }
}
