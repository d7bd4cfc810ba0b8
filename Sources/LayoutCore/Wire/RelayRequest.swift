/// What a relay sends the owner of a room, through the room's command list in Redis
/// (`ClusterKeys.requests`): a list, not a channel, so nothing sent while the room changes
/// owner is lost; the next owner takes what waits there.
package enum RelayRequest: Equatable, Sendable {
    /// A client's message, exactly as it arrived (the owner decodes it again, with its limits),
    /// and the client's role there (the owner refuses what the role may not send, as the relay
    /// did).
    case command(node: String, client: String, role: Role, message: [UInt8])
    /// An owner's change to the room's access, as the relay made it (a rotation's digests come
    /// from the owner's secret, which only the relay's connection holds).
    case access(node: String, client: String, change: AccessChange)
    /// A client of the relay joined the room (`readsText`: it speaks v1, so the owner sends
    /// frames' text form while it is there), or left it.
    case joined(node: String, client: String, readsText: Bool)
    case left(node: String, client: String)
    /// The relay has joiners waiting for the room's `data` message (`RoomBroadcast.data`).
    case data(node: String)

    private enum Tag: UInt8 { case command = 1, joined, left, data, access }

    var node: String {
        switch self {
        case .command(let node, _, _, _), .access(let node, _, _), .joined(let node, _, _), .left(let node, _), .data(let node): node
        }
    }

    package var encoded: [UInt8] {
        var writer = WireWriter(capacity: 64)
        switch self {
        case .command(let node, let client, let role, let message):
            writer.u8(Tag.command.rawValue)
            writer.text(node)
            writer.text(client)
            writer.text(role.rawValue)
            writer.data(message)
        case .access(let node, let client, let change):
            writer.u8(Tag.access.rawValue)
            writer.text(node)
            writer.text(client)
            switch change {
            case .mode(let mode):
                writer.u8(1)
                writer.text(mode.rawValue)
            case .links(let links):
                writer.u8(2)
                links.write(into: &writer)
            case .delete:
                writer.u8(3)
            }
        case .joined(let node, let client, let readsText):
            writer.u8(Tag.joined.rawValue)
            writer.text(node)
            writer.text(client)
            writer.bool(readsText)
        case .left(let node, let client):
            writer.u8(Tag.left.rawValue)
            writer.text(node)
            writer.text(client)
        case .data(let node):
            writer.u8(Tag.data.rawValue)
            writer.text(node)
        }
        return writer.bytes
    }

    /// Within `WireBounds`: a server's name, a client id, a message no longer than a client may send.
    package init(decoding bytes: [UInt8]) throws(WireMalformed) {
        var reader = WireReader(bytes)
        guard let tag = Tag(rawValue: try reader.u8()) else { throw WireMalformed("unknown request") }
        let node = try WireBounds.node(try reader.text())
        switch tag {
        case .command:
            let client = try WireBounds.client(try reader.text())
            let roleName = try reader.text()
            guard let role = Role(rawValue: roleName) else { throw WireMalformed("a role \(roleName.prefix(20).debugDescription)") }
            let message = try reader.data()
            guard message.count <= WireBounds.messageBytes else { throw WireMalformed("a message of \(message.count) bytes") }
            self = .command(node: node, client: client, role: role, message: message)
        case .access:
            let client = try WireBounds.client(try reader.text())
            switch try reader.u8() {
            case 1:
                let name = try reader.text()
                guard let mode = AccessMode(rawValue: name) else { throw WireMalformed("an access mode \(name.prefix(20).debugDescription)") }
                self = .access(node: node, client: client, change: .mode(mode))
            case 2:
                self = .access(node: node, client: client, change: .links(try LinkDigests(from: &reader)))
            case 3:
                self = .access(node: node, client: client, change: .delete)
            default:
                throw WireMalformed("an unknown access change")
            }
        case .joined: self = .joined(node: node, client: try WireBounds.client(try reader.text()), readsText: try reader.bool())
        case .left: self = .left(node: node, client: try WireBounds.client(try reader.text()))
        case .data: self = .data(node: node)
        }
        try reader.finish()
    }
}

/// What one server sends another, on the receiver's own channel (`ClusterKeys.node`).
package enum NodeMessage: Equatable, Sendable {
    /// From a room's owner: a message for one client of the receiver, whole: the `error`
    /// answering a message that was refused, or its `undoable` news.
    case reply(client: String, message: [UInt8])
    /// A new room goes to the receiver, which steps the fewest rooms (`ClusterView.placement`),
    /// with the access the asking server made for its creator (nil: none).
    case adopt(RoomName, access: RoomAccess?)

    package var encoded: [UInt8] {
        var writer = WireWriter(capacity: 128)
        switch self {
        case .reply(let client, let message):
            writer.u8(1)
            writer.text(client)
            writer.data(message)
        case .adopt(let room, let access):
            writer.u8(2)
            writer.text(room.description)
            writer.optionalData(access?.encoded)
        }
        return writer.bytes
    }

    package init(decoding bytes: [UInt8]) throws(WireMalformed) {
        var reader = WireReader(bytes)
        switch try reader.u8() {
        case 1:
            let client = try WireBounds.client(try reader.text())
            let message = try reader.data()
            guard message.count <= WireBounds.replyBytes else { throw WireMalformed("a reply of \(message.count) bytes") }
            self = .reply(client: client, message: message)
        case 2:
            let name = try reader.text()
            guard let room = RoomName(name) else { throw WireMalformed("not a room name") }
            let access = try reader.optionalData().map { bytes throws(WireMalformed) in try RoomAccess(decoding: bytes) }
            self = .adopt(room, access: access)
        default:
            throw WireMalformed("unknown node message")
        }
        try reader.finish()
    }
}
