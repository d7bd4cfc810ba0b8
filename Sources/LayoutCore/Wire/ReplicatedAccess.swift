/// A room's access as servers send it to each other (`RoomBroadcast.access`, the room's copy
/// in Redis for joiners, `NodeMessage.adopt`, `RelayRequest.access`): its mode, and its links
/// as digests (never a secret), with their generations.
extension RoomAccess {
    package func write(into writer: inout WireWriter) {
        writer.text(mode.rawValue)
        writer.bool(deleted)
        writer.bool(links != nil)
        guard let links else { return }
        links.write(into: &writer)
    }

    package init(from reader: inout WireReader) throws(WireMalformed) {
        let name = try reader.text()
        guard let mode = AccessMode(rawValue: name) else { throw WireMalformed("an access mode \(name.prefix(20).debugDescription)") }
        let deleted = try reader.bool()
        self.init(mode: mode, links: try reader.bool() ? try LinkDigests(from: &reader) : nil, deleted: deleted)
    }

    package var encoded: [UInt8] {
        var writer = WireWriter(capacity: 128)
        write(into: &writer)
        return writer.bytes
    }

    package init(decoding bytes: [UInt8]) throws(WireMalformed) {
        var reader = WireReader(bytes)
        try self.init(from: &reader)
        try reader.finish()
    }
}

extension LinkDigests {
    func write(into writer: inout WireWriter) {
        for digest in [owner, edit, view] { writer.data(digest.bytes) }
        writer.int(editGeneration)
        writer.int(viewGeneration)
    }

    init(from reader: inout WireReader) throws(WireMalformed) {
        func digest() throws(WireMalformed) -> SecretDigest {
            let bytes = try reader.data()
            guard let digest = SecretDigest(bytes: bytes) else { throw WireMalformed("a link's digest of \(bytes.count) bytes") }
            return digest
        }
        let owner = try digest(), edit = try digest(), view = try digest()
        let generations = (try reader.int(), try reader.int())
        for generation in [generations.0, generations.1] {
            try WireBounds.check(generation, in: 1...WireBounds.counter.upperBound, "a link's generation")
        }
        self.init(owner: owner, edit: edit, view: view, editGeneration: generations.0, viewGeneration: generations.1)
    }
}
