import LayoutCore
import LayoutRooms

/// A room stepped here for a cluster: as a local room, and the cluster's roster of its clients
/// (`ClusterKeys.clients`) follows this server's.
struct OwnerRoute: RoomRoute {
    let local: LocalRoute
    let replicator: RoomReplicator
    /// This server's name in the cluster.
    let node: String

    func submit(_ command: QueuedCommand, message: [UInt8], role: Role) -> ProtocolError? {
        local.submit(command, message: message, role: role)
    }

    var clientsInHello: Int { local.clientsInHello }

    /// The cluster's roster of its clients learns of it; the rest is as in a local room.
    func joined(_ client: String, mailbox: Mailbox, through: UInt64, readsText: Bool) {
        _ = replicator.joined(client, on: node, local: true, readsText: readsText)
        local.joined(client, mailbox: mailbox, through: through, readsText: readsText)
    }

    func left(_ client: String, mailbox: Mailbox) {
        guard !local.room.isGone.load(ordering: .acquiring) else { return }
        _ = replicator.left(client, local: true)
        local.left(client, mailbox: mailbox)
    }
}
