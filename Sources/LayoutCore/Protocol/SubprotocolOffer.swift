/// What a handshake's `Sec-WebSocket-Protocol` offers, judged before libwebsockets binds it.
///
/// libwebsockets binds the first name of the offer it knows, and drops the connection with no
/// HTTP status when it knows none, when a name is over 63 bytes or the whole offer over 127
/// (its buffers), or when the list does not parse. So the server judges the offer first and
/// answers 400 with a reason: an offer is a comma-separated list of at most `maxOffers` RFC 9110
/// tokens (empty elements skipped), `maxBytes` bytes in all; one that names no subprotocol
/// this server speaks is refused too. An offer that names one among others is served that one
/// (the first it names, as libwebsockets binds it). No header, or an empty one: the default (v1).
package enum SubprotocolOffer: Equatable {
    /// No subprotocol offered: the connection gets `forcelayout.v1`.
    case none
    /// The first subprotocol of the offer this server speaks.
    case chosen(Subprotocol)
    /// Answer 400: `reason` is the response's text (fixed words, nothing of the client's),
    /// `detail` goes to the log.
    case refused(reason: String, detail: String)

    static let maxOffers = 8
    static let maxBytes = 127
    static let maxNameBytes = 63

    package init(header: String?) {
        guard let header, !header.isEmpty else {
            self = .none
            return
        }
        guard header.utf8.count <= Self.maxBytes else {
            self = .refused(reason: "subprotocol offer too long", detail: "Sec-WebSocket-Protocol is over \(Self.maxBytes) bytes")
            return
        }
        let names = header.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        guard !names.isEmpty else {
            self = .none
            return
        }
        guard names.count <= Self.maxOffers else {
            self = .refused(reason: "too many subprotocols offered", detail: "Sec-WebSocket-Protocol offers \(names.count) subprotocols; at most \(Self.maxOffers)")
            return
        }
        if let bad = names.first(where: { $0.utf8.count > Self.maxNameBytes || !$0.utf8.allSatisfy(HTTPResponse.isTokenCharacter) }) {
            // A key's name is never quoted: it would put (part of) a secret in the log.
            let named = HandshakeKey.isKeyOffer(bad) ? "a forcelayout.key. entry" : Excerpt.quoted(String(bad), limit: 40)
            self = .refused(reason: "malformed subprotocol offer", detail: "Sec-WebSocket-Protocol \(named) is not a subprotocol name")
            return
        }
        guard let known = names.lazy.compactMap({ Subprotocol(rawValue: String($0)) }).first else {
            let spoken = Subprotocol.allCases.map(\.rawValue).joined(separator: ", ")
            self = .refused(reason: "unknown subprotocol: this server speaks \(spoken)", detail: "no subprotocol offered is spoken here (\(spoken))")
            return
        }
        self = .chosen(known)
    }
}

extension Substring {
    /// Without the spaces and tabs (HTTP's optional whitespace) at either end.
    func trimmingWhitespace() -> Substring {
        guard let start = firstIndex(where: { $0 != " " && $0 != "\t" }),
              let end = lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return self[start...end]
    }
}
