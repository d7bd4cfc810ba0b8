/// A Redis stream entry's ID, `<ms>-<n>`, as a room's history stream numbers its records
/// (`RedisHistoryStream`): the record's time in ms since 1970, and `n` counting records within
/// one ms. The owner chooses each ID (XADD with an explicit ID), so it knows the one each
/// segment's checkpoint got and can trim the stream to it (XTRIM MINID). Pure.
struct HistoryStreamID: Comparable, Hashable, Sendable, CustomStringConvertible {
    let ms: UInt64
    let n: UInt64

    init(ms: UInt64, n: UInt64) {
        self.ms = ms
        self.n = n
    }

    /// Parses Redis's `<ms>-<n>` (both decimal, no sign); nil for anything else.
    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 20 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let ms = UInt64(parts[0]), let n = UInt64(parts[1]) else { return nil }
        self.init(ms: ms, n: n)
    }

    var description: String { "\(ms)-\(n)" }

    /// `(ID`: XRANGE's exclusive start, the entries after this one.
    var after: String { "(\(description)" }

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.ms, lhs.n) < (rhs.ms, rhs.n) }

    /// The ID of a record made at `at` (ms since 1970) after `last` (nil: the stream is empty):
    /// its time when that is later than the last ID's, else the last ID's time with the next
    /// `n`, so the IDs always increase (XADD refuses one at or below the stream's last), also
    /// when clocks differ between the servers that owned the room in turn or a clock steps back.
    static func next(after last: Self?, at: Int) -> Self {
        let ms = UInt64(max(0, at))
        // 0-0 is no ID XADD takes.
        guard let last else { return Self(ms: ms, n: ms == 0 ? 1 : 0) }
        if ms > last.ms { return Self(ms: ms, n: 0) }
        // n overflowing within one ms would take 2^64 records: the next ms then.
        return last.n == .max ? Self(ms: last.ms + 1, n: 0) : Self(ms: last.ms, n: last.n + 1)
    }
}
