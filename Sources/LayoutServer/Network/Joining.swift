import LayoutCore
import LayoutRooms

/// A handshake admitted to its room (and counted there) that is not a WebSocket yet: what it
/// brought, kept until the connection opens (`Server.opened`) or the handshake ends.
struct Joining {
    let room: Room
    /// The link it brought (`HandshakeKey`).
    let credential: Credential
    /// The owner's secret of a room made for it (in a cluster, known once the room is).
    let creator: LinkSecret?
    /// Its offer asked for batches (`MessageBatch.offerName`).
    let batches: Bool
}
