import Foundation

/// The opening handshake of the load tool's own WebSocket clients: the upgrade request, and
/// the reading of the server's answer (101 with the subprotocol asked for), after which the
/// bytes left over are the start of the stream. The accept key is not checked: the tool
/// talks to the server it measures.
struct WebSocketHandshake {
    enum Outcome: Equatable {
        case pending
        case accepted(leftover: [UInt8])
        case refused(String)
    }

    let subprotocol: String
    private var received: [UInt8] = []
    /// An answer longer than this is not one.
    static let maxLength = 16 * 1024

    init(subprotocol: String) { self.subprotocol = subprotocol }

    static func request(host: String, port: Int, path: String, subprotocol: String, key: [UInt8]) -> [UInt8] {
        let hostHeader = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        let text = "GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(Base64.encode(key))\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: \(subprotocol)\r\n\r\n"
        return Array(text.utf8)
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        received += bytes
        let end: [UInt8] = [13, 10, 13, 10]
        guard let split = (0..<max(0, received.count - 3)).first(where: { received[$0..<($0 + 4)].elementsEqual(end) }) else {
            return received.count > Self.maxLength ? .refused("an answer without an end") : .pending
        }
        let lines = String(decoding: received[..<split], as: UTF8.self).split(separator: "\r\n")
        let status = lines.first.map(String.init) ?? ""
        guard status.hasPrefix("HTTP/1.1 101") else { return .refused(status) }
        let picked = lines.dropFirst().contains { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            return parts.count == 2 && parts[0].lowercased() == "sec-websocket-protocol"
                && parts[1].trimmingCharacters(in: .whitespaces) == subprotocol
        }
        guard picked else { return .refused("the server did not pick \(subprotocol)") }
        return .accepted(leftover: Array(received[(split + 4)...]))
    }
}
