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

    private enum Phase { case connecting, warming, measuring, done }

    private let options: Options
    private let allocations = CAllocations()
    private var context: OpaquePointer?
    private var tallies: [LoadTally]
    private var heads: [[UInt8]]
    private var phase = Phase.connecting
    private var phaseEnds = 0.0
    private var before: LoadReport.ServerSample?
    private var after: LoadReport.ServerSample?
    private var measuredFrom = 0.0
    private var measuredSeconds = 0.0
    private var timer: ServiceTimer?
    private var controlQueue: [String] = []
    private var controlDone = true
    private var controlError: String?

    /// Which connection a wsi is: kept in its opaque user data as 1 (control) or 2 + slot.
    private enum Peer: Equatable {
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

    private func connect(_ peer: Peer) -> OpaquePointer? {
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

    private func now() -> Double { Date().timeIntervalSince1970 }

    // MARK: - Phases, on a 100 ms timer

    private func scheduleTimer() {
        timer = ServiceTimer { [unowned self] in self.timerFired() }
        armTimer()
    }

    private func armTimer() {
        guard let context, let timer else { return }
        timer.schedule(on: context, after: 100_000)
    }

    func timerFired() {
        defer { if phase != .done { armTimer() } }
        let time = now()
        switch phase {
        case .connecting:
            let settled = tallies.allSatisfy { $0.connected || $0.connectFailed || $0.closedWith != nil }
            if (settled && controlDone) || time > phaseEnds {
                phase = .warming
                phaseEnds = time + options.warmupSeconds
            }
        case .warming:
            guard time >= phaseEnds else { return }
            before = StatsProbe.sample(host: options.url.host, port: options.url.port)
            // Count from here on; keep what is known of each connection's state.
            for index in tallies.indices {
                var fresh = LoadTally(stalled: tallies[index].stalled)
                fresh.connected = tallies[index].connected
                fresh.connectFailed = tallies[index].connectFailed
                fresh.closedWith = tallies[index].closedWith
                tallies[index] = fresh
            }
            phase = .measuring
            measuredFrom = now()
            phaseEnds = measuredFrom + options.seconds
        case .measuring:
            guard time >= phaseEnds else { return }
            measuredSeconds = now() - measuredFrom
            after = StatsProbe.sample(host: options.url.host, port: options.url.port)
            phase = .done
            if let context { lws_cancel_service(context) }
        case .done:
            break
        }
    }

    // MARK: - Connection events

    func handle(wsi: OpaquePointer, reason: lws_callback_reasons, input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard let opaque = lws_get_opaque_user_data(wsi) else { return 0 }
        guard case .client(let slot) = Peer(userData: opaque) else {
            return handleControl(wsi: wsi, reason: reason, input: input, length: length)
        }
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            tallies[slot].connected = true
            if tallies[slot].stalled { lws_rx_flow_control(wsi, 0) }
        case LWS_CALLBACK_CLIENT_RECEIVE:
            guard let input else { return 0 }
            received(slot: slot, wsi: wsi, bytes: UnsafeRawBufferPointer(start: input, count: length))
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            tallies[slot].connectFailed = true
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let input, length >= 2 {
                let bytes = UnsafeRawBufferPointer(start: input, count: length)
                tallies[slot].closedWith = Int(bytes[0]) << 8 | Int(bytes[1])
            }
        case LWS_CALLBACK_CLIENT_CLOSED:
            if tallies[slot].closedWith == nil { tallies[slot].closedWith = 1006 }
        default:
            break
        }
        return 0
    }

    private func received(slot: Int, wsi: OpaquePointer, bytes: UnsafeRawBufferPointer) {
        tallies[slot].bytes += bytes.count
        if heads[slot].count < FrameHead.prefixLength {
            heads[slot] += bytes.prefix(FrameHead.prefixLength - heads[slot].count)
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return }
        let arrived = now() * 1000
        if let head = FrameHead(heads[slot]) {
            switch head.type {
            case "frame":
                tallies[slot].frames += 1
                if let at = head.at { tallies[slot].latenciesMs.append(arrived - Double(at)) }
            case "error":
                tallies[slot].errors += 1
            default:
                break
            }
        }
        heads[slot].removeAll(keepingCapacity: true)
    }

    private func handleControl(wsi: OpaquePointer, reason: lws_callback_reasons, input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            lws_callback_on_writable(wsi)
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            guard !controlQueue.isEmpty else { return 0 }
            let message = Array(controlQueue.removeFirst().utf8)
            var buffer = [UInt8](repeating: 0, count: forcelayout_lws_pre + message.count)
            buffer.replaceSubrange(forcelayout_lws_pre..., with: message)
            let written = buffer.withUnsafeMutableBufferPointer {
                lws_write(wsi, $0.baseAddress! + forcelayout_lws_pre, message.count, LWS_WRITE_TEXT)
            }
            guard written == message.count else { controlError = "could not send the set-up"; return -1 }
            if controlQueue.isEmpty { controlDone = true } else { lws_callback_on_writable(wsi) }
        case LWS_CALLBACK_CLIENT_RECEIVE:
            // The set-up's errors (a limit, a rate limit) would leave the layout unlike asked.
            if let input, lws_is_first_fragment(wsi) != 0,
               let head = FrameHead(UnsafeRawBufferPointer(start: input, count: length)), head.type == "error" {
                controlError = "the server refused the set-up: " + String(decoding: UnsafeRawBufferPointer(start: input, count: min(length, 300)), as: UTF8.self)
                phase = .done
            }
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            controlError = "cannot connect to \(options.url)" + (input.map { ": " + String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "")
            phase = .done
        default:
            break
        }
        return 0
    }
}

/// libwebsockets' client callback: finds the `LoadClients` through the context's user pointer.
func loadClientCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                        _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let opaque = lws_context_user(context) else { return 0 }
    return Unmanaged<LoadClients>.fromOpaque(opaque).takeUnretainedValue()
        .handle(wsi: wsi, reason: reason, input: input, length: length)
}
