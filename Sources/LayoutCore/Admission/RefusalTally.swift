/// What admission refused and evicted since it was last told, for one log line a second
/// instead of one per connection (a flood would otherwise write thousands of lines a second).
package struct RefusalTally {
    package init() {}

    private var refused: [String: Int] = [:]
    private var addresses: [PeerAddress: Int] = [:]
    private var evicted = 0

    package mutating func count(_ refusal: ConnectionTable.Refusal, from address: PeerAddress) {
        refused[Self.reason(refusal), default: 0] += 1
        addresses[address, default: 0] += 1
    }

    package mutating func countEviction(from address: PeerAddress) {
        evicted += 1
        addresses[address, default: 0] += 1
    }

    /// One line about everything counted since the last call; nil if nothing was.
    package mutating func takeSummary() -> String? {
        guard evicted > 0 || !refused.isEmpty else { return nil }
        defer { self = RefusalTally() }
        var parts: [String] = []
        let total = refused.values.reduce(0, +)
        if total > 0 {
            let reasons = refused.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            parts.append("refused \(total) connection\(total == 1 ? "" : "s") (\(reasons))")
        }
        if evicted > 0 {
            parts.append("closed \(evicted) waiting connection\(evicted == 1 ? "" : "s") to make room")
        }
        let busiest = addresses.max { $0.value < $1.value }!.key
        let from = addresses.count == 1 ? "from \(busiest)" : "from \(addresses.count) addresses, most from \(busiest)"
        return "admission: " + parts.joined(separator: "; ") + " " + from
    }

    private static func reason(_ refusal: ConnectionTable.Refusal) -> String {
        switch refusal {
        case .descriptors(let n): "with \(n) connections holding file descriptors"
        case .connections(let n): "at --max-connections \(n), all WebSockets"
        case .address(let n): "at --max-connections-per-address \(n), all WebSockets"
        }
    }
}
