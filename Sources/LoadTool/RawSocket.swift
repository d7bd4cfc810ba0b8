import Foundation

/// A TCP connection made the plain way (blocking connect, then non-blocking) for the load
/// tool's own WebSocket clients, which libwebsockets then services as raw sockets.
enum RawSocket {
    /// A connected, non-blocking socket; `receiveBuffer`: its SO_RCVBUF, set before connecting
    /// so the window it advertises fits from the start. Nil on failure.
    static func connect(host: String, port: Int, receiveBuffer: Int? = nil) -> Int32? {
        let socket = connected(host: host, port: port) { socket in
            if let receiveBuffer {
                var size = Int32(receiveBuffer)
                setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
        }
        guard let socket else { return nil }
        guard fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK) == 0 else {
            close(socket)
            return nil
        }
        return socket
    }

    /// A blocking socket connected to the first address `host` resolves to; `configure` runs
    /// on it before it connects. Nil on failure.
    static func connected(host: String, port: Int, configure: (Int32) -> Void = { _ in }) -> Int32? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        let socket = Glibc.socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard socket >= 0 else { return nil }
        configure(socket)
        guard Glibc.connect(socket, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            close(socket)
            return nil
        }
        return socket
    }
}
