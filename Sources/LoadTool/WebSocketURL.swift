import LayoutCore
import LayoutServer

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
        let authorityText = rest.prefix { $0 != "/" }
        guard let authority = Authority(authorityText, defaultPort: 80) else {
            throw Invalid(description: "\(text): expected ws://host[:port][/path]")
        }
        host = authority.bareHost
        port = authority.port
        path = rest.count > authorityText.count ? String(rest.dropFirst(authorityText.count)) : "/"
    }

    public var description: String {
        "ws://\(host.contains(":") ? "[\(host)]" : host):\(port)\(path)"
    }
}
