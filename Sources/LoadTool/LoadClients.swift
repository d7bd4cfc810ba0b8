import CLibWebSockets
import Foundation
import LayoutServer

/// One shard of a load run: its part of the clients (`ShardPart`) on one libwebsockets client
/// context serviced by the calling thread. Readers read everything, slow readers read at a
/// fraction of the stream's bandwidth (`SlowPace`), stalled clients never read
/// (`lws_rx_flow_control` off); shard 0 may also hold a control connection that sets the
/// layout up first. With `rooms`, its readers are rooms' readers, each at its room's path and
/// setting its own room up. Only what a reader needs is looked at: a message's first bytes
/// (`FrameHead`), and with `settle` the whole of small messages (`RoomStats`).
/// The measured window is the run's (`RunSchedule`); `LoadRun` samples the server.
public final class LoadClients {
    public typealias Options = LoadOptions

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    enum Phase { case connecting, warming, measuring, holding, settling, done }

    let options: Options
    let part: ShardPart
    let schedule: RunSchedule
    let allocations = CAllocations()
    var context: OpaquePointer?
    var tallies: [LoadTally]
    /// The tallies as they were at the window's end (counting goes on while holding).
    var measured: [LoadTally]?
    /// The ages of the frames this shard's clients got, and as they were at the window's end.
    var ages = FrameAges()
    var measuredAges: FrameAges?
    var heads: [[UInt8]]
    /// Bytes of each message kept for reading it: its head, or with `settle` a whole `stats`.
    let keptBytes: Int
    /// `rooms`: the set-up messages each reader has still to send.
    var setUpQueues: [[String]]
    var settleWatches: [SettleWatch]
    /// Without rooms: each client's own WebSocket state (`LoadClients+Raw`).
    var rawPeers: [RawPeer?]
    /// Slow readers' pacing and when each may read again (seconds since 1970), by slot.
    var paces: [Int: SlowPace] = [:]
    var pausedUntil: [Int: Double] = [:]
    var phase = Phase.connecting
    var window: RunSchedule.Window?
    var readyReported = false
    var startedAt = 0.0
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

    public init(options: Options, part: ShardPart, schedule: RunSchedule) {
        self.options = options
        self.part = part
        self.schedule = schedule
        let readers = part.readers.count
        tallies = (0..<part.clients).map {
            LoadTally(stalled: $0 >= readers + part.slow, slow: $0 >= readers && $0 < readers + part.slow)
        }
        heads = Array(repeating: [], count: part.clients)
        rawPeers = Array(repeating: nil, count: part.clients)
        keptBytes = options.settle ? RoomStats.maxLength : FrameHead.prefixLength
        setUpQueues = (0..<part.clients).map { $0 < readers && options.rooms != nil ? options.setUp.messages : [] }
        settleWatches = Array(repeating: SettleWatch(cells: options.cells ?? 0), count: options.settle ? part.clients : 0)
        // A room's frame rate is its tickRate (20 by default, when the run sets none).
        for slot in readers..<(readers + part.slow) {
            paces[slot] = SlowPace(fraction: options.slowFraction, framesPerSecond: options.tickRate ?? 20)
        }
    }

    /// Connects, waits for the run's window, measures it; the tallies and the seconds measured.
    public func measure() throws(Failure) -> ShardResult {
        try serve {
            if part.control, options.rooms == nil, options.cells != nil {
                controlDone = false
                controlQueue = options.setUp.messages
                _ = connect(.control)
            }
        }
        return ShardResult(tallies: measured ?? tallies, ages: measuredAges ?? ages, measuredSeconds: measuredSeconds)
    }

    /// `settle`: makes every room of this shard, waits until each has settled, leaves it.
    public func settle() throws(Failure) -> ShardResult {
        try serve {
            phase = .settling
            window = .init(from: startedAt, to: startedAt + options.seconds)
        }
        return ShardResult(tallies: tallies, measuredSeconds: now() - startedAt)
    }

    /// Makes the client context, connects every client after `start`, and services the
    /// connections until the phases are done.
    private func serve(start: () -> Void) throws(Failure) {
        guard let context = LoadContext.make(user: Unmanaged.passUnretained(self).toOpaque(), allocations: allocations,
                                             connections: tallies.count + 8)
        else { throw Failure(description: "cannot create a libwebsockets client context") }
        self.context = context
        defer {
            timer?.cancel()
            LoadContext.destroy(context)
            self.context = nil
        }
        scheduleTimer()
        startedAt = now()
        start()
        for slot in tallies.indices {
            if usesRawClients { connectRaw(slot: slot) } else { _ = connect(.client(slot)) }
        }
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
        info.protocol = allocations.string(options.wireProtocol.subprotocol)
        info.local_protocol_name = allocations.string(LoadContext.protocolName)
        info.ietf_version_or_minus_one = -1
        info.opaque_user_data = peer.userData
        let wsi = lws_client_connect_via_info(&info)
        if wsi == nil, case .client(let slot) = peer { tallies[slot].connectFailed = true }
        return wsi
    }

    /// The URL's path, or with `rooms` a reader's room's.
    func path(of peer: Peer) -> String {
        guard let rooms = options.rooms, case .client(let slot) = peer, slot < part.readers.count else { return options.url.path }
        return rooms.path(of: part.readers[slot], under: options.url.path)
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

/// What one shard saw.
public struct ShardResult: Sendable {
    public var tallies: [LoadTally]
    public var ages: FrameAges
    public var measuredSeconds: Double

    public init(tallies: [LoadTally], ages: FrameAges = FrameAges(), measuredSeconds: Double) {
        self.tallies = tallies
        self.ages = ages
        self.measuredSeconds = measuredSeconds
    }
}
