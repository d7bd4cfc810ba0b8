/// The link a request brings, read from its headers, never from its URL (which logs keep):
///
/// - `Sec-WebSocket-Protocol: forcelayout.v2, forcelayout.key.SECRET`: a page's WebSocket API
///   can set no other header, so the secret rides as one more name of the offer (Kubernetes
///   hands its bearer tokens over the same way). libwebsockets binds and echoes only the
///   subprotocol it speaks, so the secret is never sent back.
/// - `Authorization: Bearer SECRET`: scripts, `forcelayout import`, and the exports.
///
/// SECRET is a room's link (22 characters, `LinkSecret`) or the server's admin token.
package enum HandshakeKey {
    package static let offerPrefix = "forcelayout.key."

    /// Whether a name of a subprotocol offer carries a key (it is then never quoted anywhere).
    package static func isKeyOffer(_ name: some StringProtocol) -> Bool {
        name.hasPrefix(offerPrefix)
    }

    /// The credential a request's headers carry: none, a room's link, the admin token (whose
    /// digest is `admin`), or `invalid` (not a secret's spelling, two different ones, an
    /// `Authorization` that is not `Bearer`).
    package static func credential(offer: String?, authorization: String?, admin: SecretDigest?) -> Credential {
        var presented: [Substring] = []
        if let offer {
            for name in offer.split(separator: ",") {
                let trimmed = name.trimmingWhitespace()
                if isKeyOffer(trimmed) { presented.append(trimmed.dropFirst(offerPrefix.count)) }
            }
        }
        if let authorization, !authorization.isEmpty {
            let parts = Substring(authorization).trimmingWhitespace().split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return .invalid }
            presented.append(parts[1].trimmingWhitespace())
        }
        guard let first = presented.first else { return .none }
        guard presented.allSatisfy({ $0 == first }) else { return .invalid }
        if let admin, SecretDigest(of: Array(first.utf8)).matches(admin) { return .admin }
        return LinkSecret(text: first).map { .key($0) } ?? .invalid
    }
}

