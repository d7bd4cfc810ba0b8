/// The close statuses that end a connection for its room's access (private-use codes,
/// RFC 6455 §7.4.2): a page reads them, where a refused handshake's HTTP status would be
/// hidden from it, and says why.
package enum AccessClose {
    /// The link this connection came with was rotated by the room's owner: it opens nothing now.
    package static let linkRotated: UInt32 = 4401
    /// The room's access does not let this connection in (any more): it became private and the
    /// connection has no link, or the link it brought opens none of the room's doors.
    package static let forbidden: UInt32 = 4403
    /// A private room, and no link that opens it: to this connection, there is no such room.
    package static let notFound: UInt32 = 4404
    /// The room's owner deleted it.
    package static let deleted: UInt32 = 4410

    /// All of them (what `/metrics` counts closes by, beside RFC 6455's).
    package static let all: Set<UInt32> = [linkRotated, forbidden, notFound, deleted]

    /// The close status and reason for a connection its room does not let in: `refusal` as
    /// the room's access says it, for a connection that came with a link (or the admin token:
    /// `broughtKey`), refused when its room became ready or, `wasIn`, judged again after the
    /// owner changed the room's access.
    package static func closing(_ refusal: RoomAccess.Refusal, room: RoomName, broughtKey: Bool,
                                wasIn: Bool) -> (status: UInt32, reason: String) {
        switch (refusal, broughtKey, wasIn) {
        case (.deleted, _, _): (deleted, "room \(room) was deleted by its owner")
        case (_, true, true): (linkRotated, "link rotated")
        case (.privateRoom, false, true): (forbidden, "room \(room) is private now")
        case (.privateRoom, _, false): (notFound, "room \(room) not found")
        case (.invalidLink, _, _): (forbidden, "this link does not open room \(room)")
        }
    }
}
