import EventBus

/// `history`, `moment` and `restore`: a room's past (docs/protocol.md, "History").
extension MessageDecoder {
    func decodeHistory(_ fields: inout Fields) throws(ProtocolError) -> ClientMessage {
        let before = try fields.integer("before", in: 1...Int(EventBusBounds.maxSeq))
        let count = try fields.integer("count", in: 1...limits.historyBatch) ?? limits.historyBatch
        return .history(before: before.map { UInt64($0) }, count: count)
    }

    func decodeMoment(_ fields: inout Fields) throws(ProtocolError) -> ClientMessage {
        let at = try moment("at", in: &fields)
        let have = try fields.integer("have", in: 0...Int(EventBusBounds.maxSeq))
        let patch = try fields.boolean("patch") ?? false
        return .moment(at: at, have: have.map { UInt64($0) }, patch: patch)
    }

    /// A time in ms since 1970, required: 0 … 2^53 (what a browser's `Date.now()` gives).
    func moment(_ key: String, in fields: inout Fields) throws(ProtocolError) -> Int {
        guard let at = try fields.integer(key, in: 0...Int(EventBusBounds.maxSeq)) else {
            throw ProtocolError(.badRequest, "\(fields.context) needs \(key): a time in ms since 1970")
        }
        return at
    }
}
