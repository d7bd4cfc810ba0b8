/// Where the cluster's Redis is: `redis://[:PASSWORD@]HOST[:PORT][/DB]` (`--redis`). Port 6379
/// and database 0 when left out; an IPv6 host goes in brackets, as in any URL.
public struct RedisAddress: Equatable, Sendable, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let database: Int
    public let password: String?

    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    public init(host: String, port: Int = 6379, database: Int = 0, password: String? = nil) {
        self.host = host
        self.port = port
        self.database = database
        self.password = password
    }

    public init(parsing text: String) throws(Malformed) {
        func fail(_ why: String) -> Malformed {
            Malformed(description: "--redis \(text.prefix(200)): \(why); expected redis://HOST[:PORT][/DB]")
        }
        guard text.hasPrefix("redis://") else {
            throw fail(text.contains("://") ? "only redis:// is supported (no TLS)" : "not a redis:// URL")
        }
        var rest = Substring(text.dropFirst("redis://".count))
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !path.isEmpty {
                guard path.allSatisfy(\.isASCII), let number = Int(path), (0...15).contains(number) else {
                    throw fail("the database must be a number in 0...15")
                }
                database = number
            }
        }
        guard !rest.contains("?"), !rest.contains("#") else { throw fail("no query or fragment is allowed") }
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            guard userInfo.first == ":", userInfo.count > 1 else {
                throw fail("credentials go as :PASSWORD@ (Redis 7's users are not supported)")
            }
            password = String(userInfo.dropFirst())
        }
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
        self.init(host: String(host), port: port, database: database, password: password)
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

    /// The URL without the password, for logs.
    public var description: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "redis://\(password == nil ? "" : ":***@")\(host):\(port)/\(database)"
    }
}
