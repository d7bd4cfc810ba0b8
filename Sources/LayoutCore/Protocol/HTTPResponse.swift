/// Whole HTTP/1.1 responses the server writes itself and then closes the connection:
/// refusals that libwebsockets has no status reply for (a method other than GET or HEAD,
/// CONNECT, a request line that is not HTTP). One table of statuses, one writer.
package enum HTTPResponse {
    package enum Refusal: Equatable {
        case methodNotAllowed
        case badRequest

        package var status: Int {
            switch self {
            case .methodNotAllowed: 405
            case .badRequest: 400
            }
        }

        package var reason: String {
            switch self {
            case .methodNotAllowed: "Method Not Allowed"
            case .badRequest: "Bad Request"
            }
        }

        var explanation: String {
            switch self {
            case .methodNotAllowed: "This server answers GET and HEAD only.\n"
            case .badRequest: "That is not an HTTP request.\n"
            }
        }
    }

    /// The full response: status line, headers (`Allow` with 405) and a short text body.
    package static func bytes(_ refusal: Refusal) -> [UInt8] {
        let body = refusal.explanation
        var head = "HTTP/1.1 \(refusal.status) \(refusal.reason)\r\n"
        head += "content-type: text/plain; charset=utf-8\r\n"
        head += "content-length: \(body.utf8.count)\r\n"
        if refusal == .methodNotAllowed { head += "allow: GET, HEAD\r\n" }
        head += "cache-control: no-store\r\nconnection: close\r\n\r\n"
        return Array((head + body).utf8)
    }

    /// What a connection that libwebsockets could not parse as HTTP sent: a method token then a
    /// space (CONNECT, or a method lws does not know) is refused with 405, anything else with 400.
    /// `bytes` may be empty (CONNECT, whose request lws consumed).
    package static func refusal(forUnparsed bytes: some Collection<UInt8>) -> Refusal {
        guard !bytes.isEmpty else { return .methodNotAllowed }
        let token = bytes.prefix { isTokenCharacter($0) }
        guard !token.isEmpty, bytes.dropFirst(token.count).first == UInt8(ascii: " ") else { return .badRequest }
        return .methodNotAllowed
    }

    /// RFC 9110 `tchar`.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
