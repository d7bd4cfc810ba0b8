// The handshake's new input (issue 25): whatever bytes a client puts in its
// `Sec-WebSocket-Protocol` and `Authorization` headers, and what a server reads of a room's
// access from Redis. Every input of the fuzzer also goes through here, read as both headers and
// as a replicated access. Nothing may trap; a refused offer never quotes a key; a key is only
// ever what the client sent; a room's access decoded from bytes encodes back to those bytes.

import LayoutCore

enum HandshakeFuzzer {
    static let admin = SecretDigest(of: Array("fuzz-admin-token-0123456789".utf8))
    static let owner = LinkSecret.random()

    static func check(_ bytes: [UInt8]) {
        let header = String(decoding: bytes, as: UTF8.self)
        checkOffer(header, bytes: bytes)
        let credential = HandshakeKey.credential(offer: header, authorization: header, admin: admin)
        if case .key(let secret) = credential {
            MessagePathFuzzer.require(header.contains(secret.text), "a key the client did not send", bytes)
            MessagePathFuzzer.require(LinkSecret(text: secret.text) == secret, "a key that does not spell itself", bytes)
        }
        for mode in AccessMode.allCases {
            let access = RoomAccess(mode: mode, links: LinkDigests(ownerSecret: owner))
            let entry = access.admit(credential)
            if mode == .private, credential == .none || credential == .invalid {
                MessagePathFuzzer.require(entry == .refused(.privateRoom), "a private room let in \(credential)", bytes)
            }
            if credential == .admin { MessagePathFuzzer.require(entry == .admitted(.owner), "the admin is not the owner", bytes) }
            _ = access.exportVerdict(credential)
        }
        if let access = try? RoomAccess(decoding: bytes) {
            MessagePathFuzzer.require(access.encoded == bytes, "a replicated access that does not encode back to its bytes", bytes)
        }
    }

    /// A refused offer's log line tells nothing of a `forcelayout.key.` entry's secret: the
    /// same offer with every letter and digit of its secrets replaced gets the same answer.
    private static func checkOffer(_ header: String, bytes: [UInt8]) {
        let masked = header.split(separator: ",", omittingEmptySubsequences: false).map { name -> String in
            let lead = name.prefix { $0 == " " || $0 == "\t" }
            let rest = name.dropFirst(lead.count)
            guard HandshakeKey.isKeyOffer(rest) else { return String(name) }
            let secret = rest.dropFirst(HandshakeKey.offerPrefix.count).map { $0.isASCII && ($0.isLetter || $0.isNumber) ? "A" : $0 }
            return String(lead) + HandshakeKey.offerPrefix + String(secret)
        }.joined(separator: ",")
        MessagePathFuzzer.require(SubprotocolOffer(header: header) == SubprotocolOffer(header: masked),
                                  "a refused offer's answer depends on a key's secret", bytes)
    }
}
