/// A client's entry in a room's roster in Redis (`ClusterKeys.clients`: client id → this):
/// the server it is on, and whether it reads frames' text form (a v1 client). A server taking
/// the room over learns from it which servers' clients it answers, and whether its frames
/// must carry text for them.
package struct RosterEntry: Equatable, Sendable {
    package let node: String
    package let readsText: Bool

    package init(node: String, readsText: Bool) {
        self.node = node
        self.readsText = readsText
    }

    /// `NODE`, or `NODE v1` for a client that reads text (a server's name has no space).
    package var encoded: String { readsText ? "\(node) \(Self.textMark)" : node }

    /// From the hash's value; nil for anything a server did not write.
    package init?(_ value: String) {
        let parts = value.split(separator: " ", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), NodeName.isValid(String(parts[0])),
              parts.count == 1 || parts[1] == Self.textMark else { return nil }
        self.init(node: String(parts[0]), readsText: parts.count == 2)
    }

    private static let textMark = "v1"
}
