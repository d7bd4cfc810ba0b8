/// A connection's place in its room: its role, the room's access, and the room's links its own
/// link spells out (`LinkDigests.secrets`: an owner's, or an editor's who came with the edit
/// link), for `hello` and `role` messages.
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
    /// `,"role":"owner","access":"open","links":{"owner":…,"edit":…,"view":…}` (the links only
    /// as far as the connection's own link reaches: nobody is sent a stronger secret).
    static func writeStanding(_ standing: Standing, into writer: inout JSONWriter) {
        writer.member("role", standing.role.rawValue)
        writer.member("access", standing.access.rawValue)
        guard let links = standing.links else { return }
        writer.raw(",\"links\":{")
        if let owner = links.owner {
            writer.key("owner")
            writer.string(owner.text)
            writer.raw(",")
        }
        writer.key("edit")
        writer.string(links.edit.text)
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
