import LayoutCore
import LayoutRooms

/// What the cluster's threads tell the service thread, which acts on it (`Server+Cluster`).
package enum ClusterNotice: Sendable {
    /// This server took the room's lease: it steps the room from what `claim` found.
    case won(RoomName, Claim)
    /// Redis forgot the lease (it restarted empty) and this server took it again: what Redis
    /// held of the room is written anew.
    case reacquired(RoomName)
    /// Another server holds the lease of a room stepped here (this one was cut off from Redis
    /// longer than the lease): the room stops here, and its clients start again.
    case lost(RoomName)
    /// The room is mirrored and in step: its joiners can be greeted.
    case live(RoomName)
    /// A relayed room missed events: its clients here start again.
    case gap(RoomName)
    /// An answer from a room's owner for one of this server's clients.
    case reply(client: String, message: [UInt8])
    /// Another server placed a new room here: step it (with the access that server made for
    /// the room's creator, if nobody made the room before).
    case adopt(RoomName, access: RoomAccess?)
    /// Redis came back (true) or was lost (false).
    case link(Bool)
}

/// What Redis held of a room when this server took its lease.
package struct Claim: Sendable {
    /// The room's state (a state file's bytes); nil: a new room.
    let saved: [UInt8]?
    /// The server that held the lease before (a failover), nil for a room nobody stepped.
    let previous: String?
    /// The room's clients on every server (`ClusterKeys.clients`): client → its entry.
    let roster: [String: RosterEntry]
    /// `saved` read and checked as a state file is (`decoded`), before the service thread gets
    /// the claim: a large room's state takes a while, and every connection would wait for it.
    var state: Result<SavedState?, StateFile.Failure>?

    /// `saved` read and checked (a nil `saved`: a new room, no state).
    func decoded(_ room: RoomName) -> Result<SavedState?, StateFile.Failure> {
        guard let saved else { return .success(nil) }
        do {
            return .success(try StateFile.decode(saved, path: "Redis \(ClusterKeys.state(room))"))
        } catch {
            return .failure(error)
        }
    }
}

/// Notices waiting for the service thread, which they wake.
package typealias ClusterNotices = ServiceQueue<ClusterNotice>
