/// Where the cluster's Redis is: `redis://[USER@]HOST[:PORT][/DB]` (`--redis`). Port 6379
/// and database 0 when left out; an IPv6 host goes in brackets, as in any URL. The password
/// never comes in the URL (a command line is readable by every user of the machine): it comes
/// from a file or the environment (`RedisCredentials`).
public struct RedisAddress: Equatable, Sendable, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let database: Int
    /// A Redis 6 ACL user (nil: the default user).
    public let user: String?
    public let password: String?

    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    public init(host: String, port: Int = 6379, database: Int = 0, user: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
        self.password = password
    }

    /// The same address, with these credentials.
    public func with(user: String?, password: String?) -> RedisAddress {
        RedisAddress(host: host, port: port, database: database, user: user, password: password)
    }

    public init(parsing text: String) throws(Malformed) {
        let fail = Self.failure(parsing: text)
        guard text.hasPrefix("redis://") else {
            throw fail(text.contains("://") ? "only redis:// is supported (no TLS)" : "not a redis:// URL")
        }
        var rest = Substring(text.dropFirst("redis://".count))
        let database = try Self.takeDatabase(from: &rest, fail)
        guard !rest.contains("?"), !rest.contains("#") else { throw fail("no query or fragment is allowed") }
        let user = try Self.takeUser(from: &rest, fail)
        let (host, port) = try Self.hostAndPort(rest, fail)
        self.init(host: host, port: port, database: database, user: user)
    }

    /// What makes the error for a malformed `text`: it echoes only what precedes a password,
    /// not the rest of a URL that carries one.
    private static func failure(parsing text: String) -> (String) -> Malformed {
        let shown: String = {
            guard let at = text.lastIndex(of: "@"), text[..<at].dropFirst("redis://".count).contains(":") else { return text }
            return "redis://…" + text[at...]
        }()
        return { why in
            Malformed(description: "--redis \(shown.prefix(200)): \(why); expected redis://[USER@]HOST[:PORT][/DB]")
        }
    }

    /// The database of the `/DB` path (0 when there is none), cut from the end of `rest`.
    private static func takeDatabase(from rest: inout Substring, _ fail: (String) -> Malformed) throws(Malformed) -> Int {
        guard let slash = rest.firstIndex(of: "/") else { return 0 }
        let path = rest[rest.index(after: slash)...]
        rest = rest[..<slash]
        guard !path.isEmpty else { return 0 }
        guard path.allSatisfy(\.isASCII), let number = Int(path), (0...15).contains(number) else {
            throw fail("the database must be a number in 0...15")
        }
        return number
    }

    /// The user of the `USER@` part (nil when there is none), cut from the front of `rest`.
    private static func takeUser(from rest: inout Substring, _ fail: (String) -> Malformed) throws(Malformed) -> String? {
        guard let at = rest.lastIndex(of: "@") else { return nil }
        let userInfo = rest[..<at]
        rest = rest[rest.index(after: at)...]
        guard !userInfo.contains(":") else {
            throw fail("a password does not go on the command line, where every user of this machine can read it: put it in a file given with --redis-password-file, or in the environment variable \(RedisCredentials.passwordVariable)")
        }
        guard RedisCredentials.validUser(String(userInfo)) else {
            throw fail("the user must be 1 to 64 of A-Z, a-z, 0-9, ., -, _")
        }
        return String(userInfo)
    }

    /// The host and port of `HOST[:PORT]` (port 6379 when left out; an IPv6 host in brackets).
    private static func hostAndPort(_ rest: Substring, _ fail: (String) -> Malformed) throws(Malformed) -> (String, Int) {
        var host: Substring
        var portText: Substring?
        if rest.first == "[" {
            guard let close = rest.firstIndex(of: "]") else { throw fail("an IPv6 address needs its closing ]") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { throw fail("unexpected text after the host") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw fail("no host") }
        guard host.utf8.allSatisfy({ Self.hostByte($0) }) else { throw fail("the host has characters a host name cannot") }
        var port = 6379
        if let portText {
            guard portText.allSatisfy(\.isASCII), let number = Int(portText), (1...65535).contains(number) else {
                throw fail("the port must be a number in 1...65535")
            }
            port = number
        }
        return (String(host), port)
    }

    /// Letters, digits, `.`, `-`, `_` and, for IPv6, `:` and hex digits.
    private static func hostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"),
             UInt8(ascii: ":"):
            return true
        default:
            return false
        }
    }

    /// The URL, for logs: never the password (`***` says there is one).
    public var description: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        let credentials = switch (user, password) {
        case (nil, nil): ""
        case (let user?, nil): "\(user)@"
        case (let user, _?): "\(user ?? ""):***@"
        }
        return "redis://\(credentials)\(host):\(port)/\(database)"
    }
}
