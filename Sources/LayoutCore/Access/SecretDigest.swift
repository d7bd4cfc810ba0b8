import CCrypto

/// The SHA-256 of a secret (a link's, or the server's admin token): what state files and Redis
/// keep instead of the secret. Secrets are 128 random bits (or derived from such), so a plain
/// hash is enough: there is no dictionary to try. Compared in constant time (`CRYPTO_memcmp`).
public struct SecretDigest: Sendable {
    package let bytes: [UInt8]

    package init(of secret: [UInt8]) {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = SHA256(secret, secret.count, &digest)
        bytes = digest
    }

    /// A digest's 32 bytes as they are (the cluster's wire); nil for any other length.
    package init?(bytes: [UInt8]) {
        guard bytes.count == Int(SHA256_DIGEST_LENGTH) else { return nil }
        self.bytes = bytes
    }

    /// A digest as a state file writes it: 64 hexadecimal digits in lower case.
    package init?(hex: some StringProtocol) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == Int(SHA256_DIGEST_LENGTH) * 2 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = Self.nibble(utf8[index]), let low = Self.nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    package var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// Whether `other` is the same digest, in time that does not depend on where they differ.
    package func matches(_ other: SecretDigest) -> Bool {
        bytes.count == other.bytes.count && CRYPTO_memcmp(bytes, other.bytes, bytes.count) == 0
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

/// Equal in constant time too, so no `==` anywhere compares digests byte by byte.
extension SecretDigest: Equatable {
    public static func == (lhs: SecretDigest, rhs: SecretDigest) -> Bool { lhs.matches(rhs) }
}

extension SecretDigest: CustomStringConvertible {
    public var description: String { "SecretDigest(…)" }
}
