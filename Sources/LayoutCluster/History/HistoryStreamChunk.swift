/// One XRANGE reply of a room's history stream: its entries (`HistoryStreamEntry`), how many
/// the reply held, and the ID of its last, so the next read starts after it even when that one
/// was not a record (skipped). Pure.
struct HistoryStreamChunk: Sendable, Equatable {
    let entries: [HistoryStreamEntry]
    /// Items in the reply, records or not: fewer than asked for, the stream was read to its end.
    let count: Int
    let last: HistoryStreamID?

    /// nil when the reply is not a list of entries (an error, or a key of another type).
    init?(_ reply: RedisReply) {
        guard case .array(let items) = reply else { return nil }
        var entries: [HistoryStreamEntry] = []
        var last: HistoryStreamID?
        for item in items {
            guard case .array(let parts) = item, parts.count == 2,
                  let id = parts[0].text.flatMap(HistoryStreamID.init) else { continue }
            last = max(last ?? id, id)
            guard case .array(let fields) = parts[1], fields.count == 2, fields[0].text == HistoryStreamEntry.field,
                  let record = fields[1].bytes else { continue }
            entries.append(HistoryStreamEntry(id: id, record: record))
        }
        self.entries = entries
        count = items.count
        self.last = last
    }

    init(entries: [HistoryStreamEntry]) {
        self.entries = entries
        count = entries.count
        last = entries.last?.id
    }
}
