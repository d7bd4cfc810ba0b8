/// The `host[:port]` part of a URL or a `Host` header: `host`, `host:port`, `[v6]` or
/// `[v6]:port`, nothing else (no path, user or spaces). Hosts are lower-cased, a trailing dot
/// is dropped, and the port is explicit (`defaultPort` when absent).
public struct Authority: Equatable, Sendable {
    /// As written, IPv6 addresses in brackets (`[::1]`).
    public var host: String
    public var port: Int

    /// The host as a socket address wants it: IPv6 without brackets.
    public var bareHost: String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public init?(_ text: some StringProtocol, defaultPort: Int) {
        let lower = text.lowercased()
        var host: Substring
        var rest: Substring
        if lower.hasPrefix("[") {
            guard let close = lower.firstIndex(of: "]") else { return nil }
            host = lower[...close]
            rest = lower[lower.index(after: close)...]
        } else if let colon = lower.firstIndex(of: ":") {
            host = lower[..<colon]
            rest = lower[colon...]
        } else {
            host = lower[...]
            rest = ""
        }
        if host.hasSuffix(".") && !host.hasPrefix("[") { host = host.dropLast() }
        let hostCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789.-_[]:")
        guard !host.isEmpty, host != "[]", host.allSatisfy({ hostCharacters.contains($0) }) else { return nil }
        var port = defaultPort
        if !rest.isEmpty {
            guard rest.first == ":", rest.dropFirst().allSatisfy(\.isASCII),
                  let number = Int(rest.dropFirst()), (1...65535).contains(number) else { return nil }
            port = number
        }
        self.init(host: String(host), port: port)
    }
}
