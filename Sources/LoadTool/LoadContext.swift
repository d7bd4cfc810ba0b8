import CLibWebSockets
import Foundation
import LayoutServer

/// The libwebsockets client context of one shard: two local protocols on one callback, one for
/// readers (a large read buffer, few reads) and one for slow readers (small pieces, so their
/// pacing is fine-grained). Contexts are made and destroyed one at a time across threads.
enum LoadContext {
    static let protocolName = "load"
    static let slowProtocol = "load-slow"
    /// Bytes read from a socket at once; lws's default of 4 KB costs a read call per 4 KB.
    static let readBufferBytes: UInt32 = 256 * 1024
    private static let lock = NSLock()

    static func make(user: UnsafeMutableRawPointer, allocations: CAllocations, connections: Int) -> OpaquePointer? {
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = UnsafePointer(allocations.keep(array: [
            lws_protocols(name: allocations.string(protocolName), callback: loadClientCallback, per_session_data_size: 0,
                          rx_buffer_size: 64 * 1024, id: 0, user: nil, tx_packet_size: 0),
            lws_protocols(name: allocations.string(slowProtocol), callback: loadClientCallback, per_session_data_size: 0,
                          rx_buffer_size: 1024, id: 0, user: nil, tx_packet_size: 0),
            lws_protocols(),
        ]))
        info.user = user
        info.fd_limit_per_thread = UInt32(connections + 64)
        info.pt_serv_buf_size = readBufferBytes
        lock.lock()
        defer { lock.unlock() }
        return lws_create_context(&info)
    }

    static func destroy(_ context: OpaquePointer) {
        lock.lock()
        defer { lock.unlock() }
        lws_context_destroy(context)
    }
}
