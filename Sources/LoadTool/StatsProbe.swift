import Foundation
import LayoutCore
import LayoutServer

/// `GET /stats` over a plain blocking socket: the load tool asks the server how it is doing
/// (ticks, memory) before and after the measured window.
enum StatsProbe {
    static func sample(host: String, port: Int, timeoutSeconds: Int = 5) -> LoadReport.ServerSample? {
        guard let body = get(host: host, port: port, path: Server.statsPath, timeoutSeconds: timeoutSeconds),
              let stats = try? JSONParser.parse(body),
              case .number(let tick)? = stats["tick"] else { return nil }
        func number(_ key: String) -> Double {
            if case .number(let value)? = stats[key] { return value }
            return 0
        }
        return LoadReport.ServerSample(tick: Int(tick), rssMB: number("rssMB"), clients: Int(number("clients")),
                                       cells: Int(number("cells")), at: Date().timeIntervalSince1970)
    }

    /// The body of a 200 answer, nil on any failure.
    static func get(host: String, port: Int, path: String, timeoutSeconds: Int) -> [UInt8]? {
        guard let socket = RawSocket.connected(host: host, port: port, configure: { socket in
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }) else { return nil }
        defer { close(socket) }
        let hostHeader = host.contains(":") ? "[\(host)]" : host
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(hostHeader):\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.count else { return nil }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while response.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            response += chunk[0..<count]
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        guard response.starts(with: Array("HTTP/1.1 200".utf8)) || response.starts(with: Array("HTTP/1.0 200".utf8)),
              let split = (0..<max(0, response.count - 3)).first(where: { response[$0..<($0 + 4)].elementsEqual(separator) })
        else { return nil }
        return Array(response[(split + 4)...])
    }
}
