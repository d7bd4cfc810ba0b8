import CLibWebSockets
import Foundation
import LayoutServer

/// The load tool's connections: N clients that read everything and K that never read
/// (`lws_rx_flow_control` off), all on one libwebsockets client context serviced by the
/// calling thread, plus an optional control connection that sets the layout up first.
/// With `rooms`, one reader per room instead, each at its room's path and setting its own
/// room up. Only what a reader needs is looked at: a message's first bytes (`FrameHead`),
/// and with `settle` the whole of small messages (`RoomStats`).
public final class LoadClients {
    public struct Options: Sendable {
        public var url: WebSocketURL
        public var clients = 200
        public var stalled = 0
        public var seconds = 60.0
        public var warmupSeconds = 5.0
        /// Cells to add (and keep moving, threshold 0) before measuring; nil: leave the layout.
        /// With `rooms`: in every room.
        public var cells: Int?
        /// Steps per second to ask for along with the cells; nil: the layout's own.
        public var tickRate: Double?
        /// One reader per room (`clients` and `stalled` do not apply), each setting its room up.
        public var rooms: RoomPlan?
        /// With `rooms`: add the cells without keeping them moving, wait until each room has
        /// settled, then leave it (`settle()`); `seconds` is the longest wait.
        public var settle = false
        /// The server's process id, to sample its CPU and memory from /proc.
        public var serverPID: Int32?

        public init(url: WebSocketURL) { self.url = url }

        var setUp: SetUp { SetUp(cells: cells ?? 0, keepMoving: !settle, tickRate: tickRate) }
        var readers: Int { rooms?.count ?? clients }
        var stalledClients: Int { rooms == nil ? stalled : 0 }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    enum Phase { case connecting, warming, measuring, settling, done }

    let options: Options
    let allocations = CAllocations()
    var context: OpaquePointer?
    var tallies: [LoadTally]
    var heads: [[UInt8]]
    /// Bytes of each message kept for reading it: its head, or with `settle` a whole `stats`.
    let keptBytes: Int
    /// `rooms`: the set-up messages each reader has still to send.
    var setUpQueues: [[String]]
    var settleWatches: [SettleWatch]
    var phase = Phase.connecting
    var phaseEnds = 0.0
    var startedAt = 0.0
    var before: LoadReport.ServerSample?
    var after: LoadReport.ServerSample?
    var cost = ProcessCost()
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
        let count = options.readers + options.stalledClients
        tallies = (0..<count).map { LoadTally(stalled: $0 >= options.readers) }
        heads = Array(repeating: [], count: count)
        keptBytes = options.settle ? RoomStats.maxLength : FrameHead.prefixLength
        setUpQueues = Array(repeating: options.rooms == nil ? [] : options.setUp.messages, count: count)
        settleWatches = Array(repeating: SettleWatch(cells: options.cells ?? 0), count: options.settle ? count : 0)
    }

    /// Connects, warms up, measures, and returns the figures.
    public func run() throws(Failure) -> LoadReport {
        try serve {
            if options.rooms == nil, options.cells != nil {
                controlDone = false
                controlQueue = options.setUp.messages
                _ = connect(.control)
            }
            phaseEnds = now() + 30 // connecting may take this long at most
        }
        return LoadReport(seconds: measuredSeconds, tallies: tallies, before: before, after: after, cost: cost,
                          rooms: options.rooms?.count)
    }

    /// `settle`: makes every room, waits until each has settled, leaves it, and says how long
    /// that took.
    public func settle() throws(Failure) -> SettleReport {
        try serve {
            phase = .settling
            phaseEnds = startedAt + options.seconds
            cost.before = .read(serverPID: options.serverPID, at: startedAt)
        }
        return SettleReport(cellsPerRoom: options.cells ?? 0, seconds: now() - startedAt, tallies: tallies, cost: cost)
    }

    /// Makes the client context, connects every client after `start`, and services the
    /// connections until the phases are done.
    private func serve(start: () -> Void) throws(Failure) {
        forcelayout_lws_set_log_level(Int32(LLL_ERR))
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = UnsafePointer(allocations.keep(array: [
            lws_protocols(name: allocations.string("load"), callback: loadClientCallback, per_session_data_size: 0,
                          rx_buffer_size: 64 * 1024, id: 0, user: nil, tx_packet_size: 0),
            lws_protocols(),
        ]))
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.fd_limit_per_thread = UInt32(tallies.count + 64)
        guard let context = lws_create_context(&info) else { throw Failure(description: "cannot create a libwebsockets client context") }
        self.context = context
        defer {
            timer?.cancel()
            lws_context_destroy(context)
            self.context = nil
        }
        scheduleTimer()
        startedAt = now()
        start()
        for slot in tallies.indices { _ = connect(.client(slot)) }
        while phase != .done {
            if lws_service(context, 0) < 0 { break }
        }
        if let controlError { throw Failure(description: controlError) }
    }

    func connect(_ peer: Peer) -> OpaquePointer? {
        var info = lws_client_connect_info()
        info.context = context
        info.address = allocations.string(options.url.host)
        info.port = Int32(options.url.port)
        info.path = allocations.string(path(of: peer))
        info.host = info.address
        info.protocol = allocations.string(Server.protocolName)
        info.local_protocol_name = allocations.string("load")
        info.ietf_version_or_minus_one = -1
        info.opaque_user_data = peer.userData
        let wsi = lws_client_connect_via_info(&info)
        if wsi == nil, case .client(let slot) = peer { tallies[slot].connectFailed = true }
        return wsi
    }

    /// The URL's path, or with `rooms` a reader's room's.
    func path(of peer: Peer) -> String {
        guard let rooms = options.rooms, case .client(let slot) = peer else { return options.url.path }
        return rooms.path(of: slot, under: options.url.path)
    }

    /// Writes one text message; false when it could not be written whole.
    func send(_ text: String, on wsi: OpaquePointer) -> Bool {
        let message = Array(text.utf8)
        var buffer = [UInt8](repeating: 0, count: forcelayout_lws_pre + message.count)
        buffer.replaceSubrange(forcelayout_lws_pre..., with: message)
        let written = buffer.withUnsafeMutableBufferPointer {
            lws_write(wsi, $0.baseAddress! + forcelayout_lws_pre, message.count, LWS_WRITE_TEXT)
        }
        return written == message.count
    }

    func now() -> Double { Date().timeIntervalSince1970 }
}
