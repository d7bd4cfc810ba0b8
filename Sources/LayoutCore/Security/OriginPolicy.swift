/// Which WebSocket handshakes may drive the layout.
///
/// A page on any site can open a WebSocket to 127.0.0.1 (cross-site WebSocket hijacking):
/// browsers send its `Origin`, so a handshake whose `Origin` is not this server's own site
/// (the `Host` it was asked for) nor one of `--allow-origin` is refused. Clients without
/// `Origin` (scripts, tools) are not browsers acting for someone else and are allowed.
///
/// A DNS-rebinding page is same-origin by construction (`evil.example:8080` resolving to
/// 127.0.0.1), so while the server listens on loopback only, the `Host` must also name
/// loopback (`localhost`, `127.x.x.x`, `[::1]`).
public struct OriginPolicy: Sendable, Equatable {
    public enum Verdict: Equatable, Sendable {
        case allowed
        case refused(String)
    }

    public struct InvalidOrigin: Error, CustomStringConvertible {
        public let description: String
    }

    /// Normalised `scheme://host:port` of the extra origins allowed.
    public private(set) var allowed: Set<String> = []
    /// `--allow-origin '*'`: every origin (the check is off).
    public private(set) var allowsAny = false
    /// The server listens on loopback only: `Host` must name loopback.
    public var loopbackOnly: Bool

    /// Same-site pages and origin-less clients, on loopback.
    public static let sameSite = OriginPolicy(loopbackOnly: true)

    private init(loopbackOnly: Bool) { self.loopbackOnly = loopbackOnly }

    public init(allowing origins: [String] = [], loopbackOnly: Bool = true) throws(InvalidOrigin) {
        self.loopbackOnly = loopbackOnly
        for origin in origins {
            if origin == "*" { allowsAny = true; continue }
            guard let parsed = Self.parseOrigin(origin) else {
                throw InvalidOrigin(description: "--allow-origin \(origin): expected scheme://host[:port], e.g. https://example.com")
            }
            allowed.insert(parsed.normalised)
        }
    }

    public func verdict(origin: String?, host: String?) -> Verdict {
        if loopbackOnly {
            guard let host, let authority = Authority(host, defaultPort: 80) else {
                return .refused("no usable Host header")
            }
            guard Self.isLoopback(authority.host) else {
                return .refused("Host \(host.prefix(100)) is not a loopback name (DNS rebinding?)")
            }
        }
        guard let origin else { return .allowed }
        if allowsAny { return .allowed }
        guard let parsed = Self.parseOrigin(origin) else { return .refused("Origin \(origin.prefix(100)) is not an origin") }
        if allowed.contains(parsed.normalised) { return .allowed }
        if let host, let authority = Authority(host, defaultPort: parsed.port),
           authority.host == parsed.host, authority.port == parsed.port {
            return .allowed
        }
        return .refused("cross-site Origin \(origin.prefix(100))")
    }

    // MARK: - Parsing (lower-cased hosts, explicit ports)

    struct Origin: Equatable {
        var scheme: String
        var host: String
        var port: Int
        var normalised: String { "\(scheme)://\(host):\(port)" }
    }

    static func parseOrigin(_ text: String) -> Origin? {
        let lower = text.lowercased()
        let defaults = ["http": 80, "https": 443]
        for (scheme, port) in defaults {
            let prefix = scheme + "://"
            guard lower.hasPrefix(prefix) else { continue }
            guard let authority = Authority(lower.dropFirst(prefix.count), defaultPort: port) else { return nil }
            return Origin(scheme: scheme, host: authority.host, port: authority.port)
        }
        return nil
    }

    /// A name or address of this machine's loopback interface (lower case).
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "[::1]" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
