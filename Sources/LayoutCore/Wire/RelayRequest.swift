/// What a relay sends the owner of a room, through the room's command list in Redis
/// (`ClusterKeys.requests`): a list, not a channel, so nothing sent while the room changes
/// owner is lost; the next owner takes what waits there.
package enum RelayRequest: Equatable, Sendable {
    /// A client's message, exactly as it arrived (the owner decodes it again, with its limits).
    case command(node: String, client: String, message: [UInt8])
    /// A client of the relay joined the room (`readsText`: it speaks v1, so the owner sends
    /// frames' text form while it is there), or left it.
    case joined(node: String, client: String, readsText: Bool)
    case left(node: String, client: String)
    /// The relay has joiners waiting for the room's `data` message (`RoomBroadcast.data`).
    case data(node: String)

    private enum Tag: UInt8 { case command = 1, joined, left, data }

    var node: String {
        switch self {
        case .command(let node, _, _), .joined(let node, _, _), .left(let node, _), .data(let node): node
        }
    }

    package var encoded: [UInt8] {
        var writer = WireWriter(capacity: 64)
        switch self {
        case .command(let node, let client, let message):
            writer.u8(Tag.command.rawValue)
            writer.text(node)
            writer.text(client)
            writer.data(message)
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
            let message = try reader.data()
            guard message.count <= WireBounds.messageBytes else { throw WireMalformed("a message of \(message.count) bytes") }
            self = .command(node: node, client: client, message: message)
        case .joined: self = .joined(node: node, client: try WireBounds.client(try reader.text()), readsText: try reader.bool())
        case .left: self = .left(node: node, client: try WireBounds.client(try reader.text()))
        case .data: self = .data(node: node)
        }
        try reader.finish()
    }
}

/// What one server sends another, on the receiver's own channel (`ClusterKeys.node`).
package enum NodeMessage: Equatable, Sendable {
    /// From a room's owner: the answer to a client's message that was refused (an `error`
    /// message, whole).
    case reply(client: String, message: [UInt8])
    /// A new room goes to the receiver, which steps the fewest rooms (`ClusterView.placement`).
    case adopt(RoomName)

    package var encoded: [UInt8] {
        var writer = WireWriter(capacity: 128)
        switch self {
        case .reply(let client, let message):
            writer.u8(1)
            writer.text(client)
            writer.data(message)
        case .adopt(let room):
            writer.u8(2)
            writer.text(room.description)
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
            self = .adopt(room)
        default:
            throw WireMalformed("unknown node message")
        }
        try reader.finish()
    }
}
