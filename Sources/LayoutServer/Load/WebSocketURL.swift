/// `ws://host[:port][/path]`, the only kind of URL the load tool connects to.
public struct WebSocketURL: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var path: String

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(Invalid) {
        guard text.hasPrefix("ws://") else { throw Invalid(description: "\(text): expected ws://host[:port][/path] (wss is not supported)") }
        let rest = text.dropFirst("ws://".count)
        let authority = rest.prefix { $0 != "/" }
        path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let tail = authority[authority.index(after: close)...]
            port = tail.isEmpty ? 80 : (tail.first == ":" ? Int(tail.dropFirst()) ?? -1 : -1)
        } else if let colon = authority.firstIndex(of: ":") {
            host = String(authority[..<colon])
            port = Int(authority[authority.index(after: colon)...]) ?? -1
        } else {
            host = String(authority)
            port = 80
        }
        guard !host.isEmpty, (1...65535).contains(port) else {
            throw Invalid(description: "\(text): expected ws://host[:port][/path]")
        }
    }

    /// The `/stats` address of the same server.
    public var statsPath: String { "/stats" }

    public var description: String {
        "ws://\(host.contains(":") ? "[\(host)]" : host):\(port)\(path)"
    }
}
