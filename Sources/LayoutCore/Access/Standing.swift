/// A connection's place in its room: its role, the room's access, and, for an owner who came
/// with the owner's secret, the room's links spelled out (`hello` and `role` messages).
package struct Standing: Equatable, Sendable {
    package var role: Role
    package var access: AccessMode
    package var links: RoomLinks?

    package init(role: Role, access: AccessMode, links: RoomLinks? = nil) {
        self.role = role
        self.access = access
        self.links = links
    }
}

extension ServerMessages {
    /// `,"role":"owner","access":"open","links":{"owner":…,"edit":…,"view":…}` (links only for
    /// an owner holding the owner's secret: nobody else is ever sent a secret).
    static func writeStanding(_ standing: Standing, into writer: inout JSONWriter) {
        writer.member("role", standing.role.rawValue)
        writer.member("access", standing.access.rawValue)
        guard let links = standing.links else { return }
        writer.raw(",\"links\":{\"owner\":")
        writer.string(links.owner.text)
        writer.member("edit", links.edit.text)
        writer.member("view", links.view.text)
        writer.raw("}")
    }

    /// `role`: the connection's standing changed (the owner changed the access, or rotated the
    /// links, which an owner's connection is sent anew).
    package static func role(_ standing: Standing) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 160)
        writer.raw("{\"type\":\"role\"")
        writeStanding(standing, into: &writer)
        writer.raw("}")
        return writer.bytes
    }
}
