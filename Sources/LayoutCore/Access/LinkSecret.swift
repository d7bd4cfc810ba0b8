import CCrypto

/// A link's secret: 128 bits, written as 22 characters of base64url (RFC 4648 §5, no padding),
/// which are RFC 9110 token characters, so it fits in a `Sec-WebSocket-Protocol` offer and an
/// address's fragment as it is.
///
/// An owner's secret comes from the OS's random source (`SystemRandomNumberGenerator`:
/// `getrandom(2)` on Linux). The edit secret is derived from it and the view secret from the
/// edit secret (`derived`), as Tahoe-LAFS derives a read capability from a write capability:
/// HMAC-SHA-256 keyed with the stronger secret over the link's kind and generation, cut to 128
/// bits. So the server, which keeps only digests (`SecretDigest`), can spell out the room's
/// current links again for whoever comes back with a stronger one (an owner gets the edit and
/// view links, an editor the view link, to hand on), and rotating a link is a new generation
/// (the edit link's rotation makes a new view link too). A secret tells nothing of a stronger
/// one.
package struct LinkSecret: Equatable, Sendable {
    package static let byteCount = 16
    package static let textCount = 22

    package let bytes: [UInt8]

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A fresh secret from the OS's random source.
    package static func random() -> LinkSecret {
        var generator = SystemRandomNumberGenerator()
        return LinkSecret(bytes: (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The secret of `kind`'s link of `generation`, derived from this one (an owner's secret
    /// for the edit link, an edit secret for the view link).
    package func derived(_ kind: LinkKind, generation: Int) -> LinkSecret {
        let message = Array("forcelayout \(kind.rawValue) link \(generation)".utf8)
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = HMAC(EVP_sha256(), bytes, Int32(bytes.count), message, message.count, &mac, &length)
        return LinkSecret(bytes: Array(mac.prefix(Self.byteCount)))
    }

    /// Its text (22 characters of base64url).
    package var text: String {
        var characters: [UInt8] = []
        characters.reserveCapacity(Self.textCount)
        var bits = 0, value = 0
        for byte in bytes {
            value = value << 8 | Int(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                characters.append(Self.alphabet[(value >> bits) & 63])
            }
        }
        if bits > 0 { characters.append(Self.alphabet[(value << (6 - bits)) & 63]) }
        return String(decoding: characters, as: UTF8.self)
    }

    /// The secret a text spells, or nil unless it is exactly 22 characters of base64url whose
    /// last one carries no stray bits (so each secret has one spelling).
    package init?(text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard utf8.count == Self.textCount else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        var bits = 0, value = 0
        for character in utf8 {
            guard let sextet = Self.sextet(character) else { return nil }
            value = (value << 6 | Int(sextet)) & 0xFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((value >> bits) & 0xFF))
            }
        }
        guard bits == 4, value & 0xF == 0 else { return nil }
        self.bytes = bytes
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// Its digest, the only form of it the server keeps.
    package var digest: SecretDigest { SecretDigest(of: bytes) }
}

/// A secret is never written out by accident: not in a log line, an error or a description.
extension LinkSecret: CustomStringConvertible {
    package var description: String { "LinkSecret(…)" }
}
