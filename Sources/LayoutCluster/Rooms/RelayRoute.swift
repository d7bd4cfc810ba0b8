import LayoutCore
import LayoutRooms

/// A room stepped by another server and mirrored here (`RoomMirror`): its clients' commands go
/// to the owner through Redis as they came, and the owner hears of its clients coming and going.
struct RelayRoute: RoomRoute {
    let room: Room
    let mirror: RoomMirror
    let cluster: ClusterNode
    /// Whether Redis was reachable when last heard of (commands cannot go otherwise).
    let linked: Bool

    func submit(_ command: QueuedCommand, message: [UInt8], role: Role) -> ProtocolError? {
        guard linked else {
            return ProtocolError(.clusterUnavailable, "room \(room.name) is stepped by another server and Redis cannot be reached from this one: not delivered", ref: command.ref)
        }
        if case .access(let change) = command.command {
            cluster.send(.access(node: cluster.name, client: command.client, change: change), to: room.name)
        } else {
            cluster.forward(message, from: command.client, role: role, in: room.name)
        }
        return nil
    }

    /// The relay counts its joiner before the owner does.
    var clientsInHello: Int { room.clients + 1 }

    /// Its `data` comes from the owner once the mirror has had the events up to `through`.
    /// A v1 joiner's frame comes once the owner sent one with text (`Room.wantsText`).
    func joined(_ client: String, mailbox: Mailbox, through: UInt64, readsText: Bool) {
        mirror.attach(mailbox)
        mirror.waitForData(mailbox, through: through)
        cluster.joined(client, room.name, readsText: readsText)
    }

    func left(_ client: String, mailbox: Mailbox) {
        mirror.detach(mailbox)
        cluster.left(client, room.name)
    }
}
