import LayoutCore

/// How a room is served from this server, in one place for each kind: where its clients'
/// commands go, what a client of it coming or going sets off, and how many clients a joiner's
/// `hello` counts. Stepped here alone (`LocalRoute`), stepped here for a cluster
/// (`OwnerRoute`: its replicator keeps the cluster's roster), or stepped by another server and
/// mirrored here (`RelayRoute`, in Cluster/Rooms/); `RoomHost.route(of:linked:)` says which
/// serves a room now. Service thread.
package protocol RoomRoute {
    /// A client's command (`message`: its bytes as they came) from a client of `role` (which
    /// may send it: the server checked); an error for the client when it cannot be delivered,
    /// else nil.
    func submit(_ command: QueuedCommand, message: [UInt8], role: Role) -> ProtocolError?
    /// The clients a joiner's `hello` counts, the joiner included.
    var clientsInHello: Int { get }
    /// A client here had its `hello`, which carried the room's events up to `through`.
    /// `readsText`: a v1 client (frames' text form).
    func joined(_ client: String, mailbox: Mailbox, through: UInt64, readsText: Bool)
    /// A client here that had its `hello` left.
    func left(_ client: String, mailbox: Mailbox)
}

/// A room stepped here, with no cluster.
package struct LocalRoute: RoomRoute {
    package let room: Room
    let host: RoomHost

    package func submit(_ command: QueuedCommand, message: [UInt8], role: Role) -> ProtocolError? {
        host.submit(command, to: room)
        return nil
    }

    package var clientsInHello: Int { host.clients(of: room.name) }

    /// Its `data` comes after the opening; everyone hears of the joiner.
    package func joined(_ client: String, mailbox: Mailbox, through: UInt64, readsText: Bool) {
        host.request(.data(mailbox), of: room)
        room.presence(.joined, of: client)
    }

    /// Everyone hears of it, and the cells it held by dragging are let go (unless the room
    /// itself left meanwhile).
    package func left(_ client: String, mailbox: Mailbox) {
        guard !room.isGone.load(ordering: .acquiring) else { return }
        room.presence(.left, of: client)
        host.request(.releaseDrags(client: client), of: room)
    }
}
