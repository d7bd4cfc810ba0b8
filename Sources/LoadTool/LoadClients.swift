import CLibWebSockets
import Foundation
import LayoutServer

/// The load tool's connections: N clients that read everything and K that never read
/// (`lws_rx_flow_control` off), all on one libwebsockets client context serviced by the
/// calling thread, plus an optional control connection that sets the layout up first.
/// Only what a reader needs is looked at: a message's first bytes (`FrameHead`).
public final class LoadClients {
    public struct Options: Sendable {
        public var url: WebSocketURL
        public var clients = 200
        public var stalled = 0
        public var seconds = 60.0
        public var warmupSeconds = 5.0
        /// Cells to add (and keep moving, threshold 0) before measuring; nil: leave the layout.
        public var cells: Int?

        public init(url: WebSocketURL) { self.url = url }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    enum Phase { case connecting, warming, measuring, done }

    let options: Options
    let allocations = CAllocations()
    var context: OpaquePointer?
    var tallies: [LoadTally]
    var heads: [[UInt8]]
    var phase = Phase.connecting
    var phaseEnds = 0.0
    var before: LoadReport.ServerSample?
    var after: LoadReport.ServerSample?
    var measuredFrom = 0.0
    var measuredSeconds = 0.0
    var timer: ServiceTimer?
    var controlQueue: [String] = []
    var controlDone = true
    var controlError: String?

    /// Which connection a wsi is: kept in its opaque user data as 1 (control) or 2 + slot.
    enum Peer: Equatable {
        case control
        case client(Int)

        var userData: UnsafeMutableRawPointer? {
            switch self {
            case .control: return UnsafeMutableRawPointer(bitPattern: 1)
            case .client(let slot): return UnsafeMutableRawPointer(bitPattern: 2 + slot)
            }
        }

        init(userData: UnsafeMutableRawPointer) {
            let tag = Int(bitPattern: userData)
            self = tag == 1 ? .control : .client(tag - 2)
        }
    }

    public init(options: Options) {
        self.options = options
        tallies = (0..<(options.clients + options.stalled)).map { LoadTally(stalled: $0 >= options.clients) }
        heads = Array(repeating: [], count: options.clients + options.stalled)
    }

    /// Connects, warms up, measures, and returns the figures.
    public func run() throws(Failure) -> LoadReport {
        forcelayout_lws_set_log_level(Int32(LLL_ERR))
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = UnsafePointer(allocations.keep(array: [
            lws_protocols(name: allocations.string("load"), callback: loadClientCallback, per_session_data_size: 0,
                          rx_buffer_size: 64 * 1024, id: 0, user: nil, tx_packet_size: 0),
            lws_protocols(),
        ]))
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.fd_limit_per_thread = UInt32(options.clients + options.stalled + 64)
        guard let context = lws_create_context(&info) else { throw Failure(description: "cannot create a libwebsockets client context") }
        self.context = context
        defer {
            timer?.cancel()
            lws_context_destroy(context)
            self.context = nil
        }
        scheduleTimer()

        if let cells = options.cells {
            controlDone = false
            var left = cells
            while left > 0 {
                let count = min(left, 1000)
                controlQueue.append(#"{"type":"add","count":\#(count)}"#)
                left -= count
            }
            controlQueue.append(#"{"type":"params","threshold":0}"#)
            _ = connect(.control)
        }
        for slot in tallies.indices { _ = connect(.client(slot)) }
        phaseEnds = now() + 30 // connecting may take this long at most
        while phase != .done {
            if lws_service(context, 0) < 0 { break }
        }
        if let controlError { throw Failure(description: controlError) }
        return LoadReport(seconds: measuredSeconds, tallies: tallies, before: before, after: after)
    }

    func connect(_ peer: Peer) -> OpaquePointer? {
        var info = lws_client_connect_info()
        info.context = context
        info.address = allocations.string(options.url.host)
        info.port = Int32(options.url.port)
        info.path = allocations.string(options.url.path)
        info.host = info.address
        info.protocol = allocations.string(Server.protocolName)
        info.local_protocol_name = allocations.string("load")
        info.ietf_version_or_minus_one = -1
        info.opaque_user_data = peer.userData
        let wsi = lws_client_connect_via_info(&info)
        if wsi == nil, case .client(let slot) = peer { tallies[slot].connectFailed = true }
        return wsi
    }

    func now() -> Double { Date().timeIntervalSince1970 }
}
