import Glibc

/// Who a connection comes from, for the per-address cap: an IPv4 address, or the /64 an IPv6
/// address belongs to (one host commonly holds a whole /64, so single IPv6 addresses would
/// not bound anyone). IPv4-mapped IPv6 addresses count as the IPv4 address.
package struct PeerAddress: Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or the first 8 bytes (an IPv6 /64).
    private let key: [UInt8]
    /// The full address, for logs.
    package let description: String

    private init(key: [UInt8], description: String) {
        self.key = key
        self.description = description
    }

    package init(ipv4 bytes: [UInt8]) {
        self.init(key: bytes, description: bytes.map(String.init).joined(separator: "."))
    }

    init(ipv6 bytes: [UInt8]) {
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            self.init(ipv4: Array(bytes[12..<16]))
            return
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
        self.init(key: Array(bytes[0..<8]),
                  description: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The address in a `sockaddr_storage` (as `accept` fills it); nil for other families.
    package init?(_ storage: UnsafePointer<sockaddr_storage>) {
        switch Int32(storage.pointee.ss_family) {
        case AF_INET:
            let address = UnsafeRawPointer(storage).load(as: sockaddr_in.self).sin_addr
            self.init(ipv4: withUnsafeBytes(of: address) { Array($0) })
        case AF_INET6:
            let address = UnsafeRawPointer(storage).load(as: sockaddr_in6.self).sin6_addr
            self.init(ipv6: withUnsafeBytes(of: address) { Array($0) })
        default:
            return nil
        }
    }

    /// 127.0.0.0/8 or ::1: this machine.
    package var isLoopback: Bool { key.count == 4 ? key[0] == 127 : description == "::1" }

    package static func == (a: PeerAddress, b: PeerAddress) -> Bool { a.key == b.key }
    package func hash(into hasher: inout Hasher) { hasher.combine(key) }
}
