import CLibWebSockets
import Foundation
import LayoutServer

/// The libwebsockets client context of one shard: a socket is read up to 256 KB a call (lws's
/// default of 4 KB costs a read call per 4 KB) and what was read comes in one callback, so a
/// slow reader takes in whatever its socket held (at most its small receive buffer) and then
/// sleeps as long as those bytes take at its pace. Contexts are made and destroyed one at a
/// time across threads.
enum LoadContext {
    static let protocolName = "load"
    static let readBufferBytes: UInt32 = 256 * 1024
    private static let lock = NSLock()

    static func make(user: UnsafeMutableRawPointer, allocations: CAllocations, connections: Int) -> OpaquePointer? {
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = UnsafePointer(allocations.keep(array: [
            lws_protocols(name: allocations.string(protocolName), callback: loadClientCallback, per_session_data_size: 0,
                          rx_buffer_size: 64 * 1024, id: 0, user: nil, tx_packet_size: 0),
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
