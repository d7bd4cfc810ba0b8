/// Redis's credentials (`AUTH [USER] PASSWORD` on every connection), from where secrets may
/// come: a file (`--redis-password-file`) or the environment, never the command line. The user
/// is no secret: it may come in the URL (`redis://USER@HOST`) or the environment.
public enum RedisCredentials {
    public static let passwordVariable = "FORCELAYOUT_REDIS_PASSWORD"
    public static let userVariable = "FORCELAYOUT_REDIS_USER"

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// `address` with its credentials: the password from `passwordFile` (read with `readFile`;
    /// one final newline dropped) or from `environment`, the user from the URL or the
    /// environment. Each may be given in one place only; a user needs a password. No error
    /// echoes a password.
    public static func resolve(_ address: RedisAddress, passwordFile: String?, environment: [String: String],
                               readFile: (String) throws -> [UInt8]) throws(Problem) -> RedisAddress {
        var password: String?
        let fromEnvironment = environment[passwordVariable].flatMap { $0.isEmpty ? nil : $0 }
        if let passwordFile {
            guard fromEnvironment == nil else {
                throw Problem(description: "the Redis password is given twice: --redis-password-file and \(passwordVariable); give one")
            }
            let bytes: [UInt8]
            do {
                bytes = try readFile(passwordFile)
            } catch {
                throw Problem(description: "--redis-password-file \(passwordFile): cannot read it (\(error))")
            }
            var line = bytes[...]
            if line.last == UInt8(ascii: "\n") { line = line.dropLast() }
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            let text = String(decoding: line, as: UTF8.self)
            guard !text.isEmpty, bytes.count <= 4096, !text.contains(where: \.isNewline) else {
                throw Problem(description: "--redis-password-file \(passwordFile): it must hold the password alone, on one line of at most 4096 bytes")
            }
            password = text
        } else {
            password = fromEnvironment
        }
        var user = address.user
        if let named = environment[userVariable], !named.isEmpty {
            guard user == nil || user == named else {
                throw Problem(description: "the Redis user is given twice, in --redis and in \(userVariable); give it once")
            }
            guard validUser(named) else { throw Problem(description: "\(userVariable) must be 1 to 64 of A-Z, a-z, 0-9, ., -, _") }
            user = named
        }
        if let user, password == nil {
            throw Problem(description: "Redis user \(user) needs its password: in a file given with --redis-password-file, or in \(passwordVariable)")
        }
        return address.with(user: user, password: password)
    }

    /// 1 to 64 of `A-Z a-z 0-9 . - _`.
    public static func validUser(_ user: String) -> Bool {
        (1...64).contains(user.utf8.count) && user.utf8.allSatisfy {
            switch $0 {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default:
                false
            }
        }
    }
}
