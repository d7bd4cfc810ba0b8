import CLibWebSockets
import Dispatch
import EventBus
import ForceLayout
import Foundation
import Logging
import Synchronization

/// The libwebsockets server: static files from `Public/`, `GET /stats`, and the shared
/// layout protocol at `/ws`. Everything in here runs on the service thread (the thread that
/// calls `run()`), except `StopSwitch`, which signal handlers use to ask it to stop.
public final class Server {
    public static let protocolName = "forcelayout.v1"
    static let websocketPath = "/ws"
    static let statsPath = "/stats"

    /// Lets another thread (a signal handler) ask the service thread to shut down.
    public final class StopSwitch: Sendable {
        fileprivate let requested = Atomic<Bool>(false)
        fileprivate let waker = Mutex<ServiceWaker?>(nil)

        public func requestStop() {
            requested.store(true, ordering: .releasing)
            waker.withLock { $0?.wake() }
        }

        var isRequested: Bool { requested.load(ordering: .acquiring) }
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    let config: ServerConfig
    let logger: Logger
    public let stopSwitch = StopSwitch()

    private let allocations = CAllocations()
    private var context: OpaquePointer?
    private(set) var waker: ServiceWaker?
    private var statsTimer: UnsafeMutableRawPointer?
    private let startedAt = DispatchTime.now()

    let decoder: MessageDecoder
    let publicFiles: PublicFiles
    let bus: EventBus<LayoutEvent>
    let commands = CommandQueue()
    let frames = FrameBoard()
    let eventMessages = EventMessages()
    let status = StatusBoard()
    private let loop: SimulationLoop
    private let restored: LayoutSnapshot?

    var sessions: [OpaquePointer: Session] = [:]
    var pendingHTTP: [OpaquePointer: OutgoingMessage] = [:]
    private var clientCounter = 0
    private var shutdownDeadline: DispatchTime?

    /// Loads the state file (if any); fails with a clear message when it is unusable.
    public init(config: ServerConfig, logger: Logger) throws(StartFailure) {
        self.config = config
        self.logger = logger
        decoder = MessageDecoder(limits: config.limits)
        publicFiles = PublicFiles(root: config.publicDirectory)
        bus = EventBus(replayCapacity: config.limits.replayBuffer)
        var saver: StateSaver?
        if let path = config.statePath {
            do {
                restored = try StateFile.load(from: path)
            } catch {
                throw StartFailure(description: error.description)
            }
            saver = StateSaver(path: path, logger: logger)
        } else {
            restored = nil
        }
        if let restored, restored.cells.count > config.limits.maxCells {
            throw StartFailure(description: "state file holds \(restored.cells.count) cells, more than --max-cells \(config.limits.maxCells)")
        }
        loop = SimulationLoop(shared: .init(commands: commands, frames: frames, status: status, bus: bus,
                                            limits: config.limits, saver: saver, logger: logger))
    }

    /// Binds, starts the simulation thread and returns the URL it serves.
    public func start() throws(StartFailure) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: config.publicDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StartFailure(description: "public folder \(config.publicDirectory) does not exist")
        }
        forcelayout_lws_set_log_level(Int32(LLL_ERR) | Int32(LLL_WARN))
        var info = makeContextInfo()
        info.user = Unmanaged.passUnretained(self).toOpaque()
        guard let context = lws_create_context(&info) else {
            throw StartFailure(description: "cannot listen on \(config.host):\(config.port) (in use, or not an address of this machine?)")
        }
        self.context = context
        let waker = ServiceWaker(context: context)
        self.waker = waker
        stopSwitch.waker.withLock { $0 = waker }
        scheduleStatsTimer()
        let initialParameters = restored?.parameters ?? .defaults
        loop.start(initial: restored, parameters: initialParameters,
                   seed: config.seed ?? UInt64.random(in: 1...UInt64.max), waker: waker)
        let host = config.host.contains(":") ? "[\(config.host)]" : config.host
        return "http://\(host):\(config.port)/"
    }

    /// Services connections until a stop is requested, then closes every client with 1001,
    /// stops the simulation (which saves the state) and releases the context.
    public func run() {
        guard let context else { return }
        while true {
            if lws_service(context, 0) < 0 { break }
            if stopSwitch.isRequested {
                if shutdownDeadline == nil { beginShutdown() }
                if sessions.isEmpty || DispatchTime.now() > shutdownDeadline! { break }
            }
        }
        if let statsTimer { lws_sul_cancel(statsTimer.assumingMemoryBound(to: lws_sorted_usec_list_t.self)) }
        loop.stop()
        lws_context_destroy(context)
        self.context = nil
        statsTimer?.deallocate()
        statsTimer = nil
    }

    private func beginShutdown() {
        shutdownDeadline = .now() + .seconds(2)
        logger.info("shutting down: closing \(sessions.count) connection(s)")
        for session in sessions.values {
            session.closeRequest = (LWS_CLOSE_STATUS_GOINGAWAY, "server shutting down")
            lws_callback_on_writable(session.wsi)
        }
    }

    // MARK: - Context set-up

    private func makeContextInfo() -> lws_context_creation_info {
        let protocols = allocations.keep(array: [
            lws_protocols(name: allocations.string("http"), callback: lws_callback_http_dummy,
                          per_session_data_size: 0, rx_buffer_size: 0, id: 0, user: nil, tx_packet_size: 0),
            lws_protocols(name: allocations.string(Server.protocolName), callback: layoutProtocolCallback,
                          per_session_data_size: 0, rx_buffer_size: 16 * 1024, id: 0, user: nil,
                          tx_packet_size: 256 * 1024),
            lws_protocols(),
        ])

        var mimeTypes: UnsafeMutablePointer<lws_protocol_vhost_options>?
        for (suffix, type) in [(".mjs", "text/javascript"), (".map", "application/json"),
                               (".webp", "image/webp"), (".wasm", "application/wasm"),
                               (".json", "application/json"), (".svg", "image/svg+xml")] {
            mimeTypes = allocations.keep(lws_protocol_vhost_options(
                next: mimeTypes, options: nil, name: allocations.string(suffix), value: allocations.string(type)))
        }

        var files = lws_http_mount()
        files.mountpoint = allocations.string("/")
        files.mountpoint_len = 1
        files.origin = allocations.string(config.publicDirectory)
        files.def = allocations.string("index.html")
        files.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
        files.extra_mimetypes = UnsafePointer(mimeTypes)
        files.cache_max_age = 0
        let filesMount = allocations.keep(files)

        var stats = lws_http_mount()
        stats.mount_next = UnsafePointer(filesMount)
        stats.mountpoint = allocations.string(Server.statsPath)
        stats.mountpoint_len = UInt8(Server.statsPath.utf8.count)
        stats.protocol = allocations.string(Server.protocolName)
        stats.origin_protocol = UInt8(LWSMPRO_CALLBACK.rawValue)
        let mounts = allocations.keep(stats)

        // Clients that offer no subprotocol are served the layout protocol too.
        let defaultOption = allocations.keep(lws_protocol_vhost_options(
            next: nil, options: nil, name: allocations.string("default"), value: allocations.string("1")))
        let protocolOptions = allocations.keep(lws_protocol_vhost_options(
            next: nil, options: UnsafePointer(defaultOption), name: allocations.string(Server.protocolName),
            value: allocations.string("")))

        var retry = lws_retry_bo_t()
        retry.secs_since_valid_ping = config.pingAfterSeconds
        retry.secs_since_valid_hangup = config.hangUpAfterSeconds
        let retryPolicy = allocations.keep(retry)

        var info = lws_context_creation_info()
        info.port = Int32(config.port)
        info.iface = allocations.string(config.host)
        info.protocols = UnsafePointer(protocols)
        info.mounts = UnsafePointer(mounts)
        info.pvo = UnsafePointer(protocolOptions)
        info.retry_and_idle_policy = UnsafePointer(retryPolicy)
        info.vhost_name = allocations.string("forcelayout")
        var options = UInt64(LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE)
        // With IPv6 on, lws ignores `iface` for IPv4 addresses and listens everywhere.
        if !config.host.contains(":") { options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6) }
        info.options = options
        return info
    }

    private func scheduleStatsTimer() {
        let size = MemoryLayout<lws_sorted_usec_list_t>.stride + MemoryLayout<UnsafeRawPointer>.stride
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        block.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        block.advanced(by: MemoryLayout<lws_sorted_usec_list_t>.stride)
            .storeBytes(of: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()), as: UnsafeRawPointer.self)
        statsTimer = block
        armStatsTimer()
    }

    private func armStatsTimer() {
        guard let context, let statsTimer else { return }
        lws_sul_schedule(context, 0, statsTimer.assumingMemoryBound(to: lws_sorted_usec_list_t.self),
                         statsTimerCallback, 1_000_000)
    }

    // MARK: - Callbacks

    func handle(wsi: OpaquePointer, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
                input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            // The place to refuse a handshake with an HTTP status; >0 says we answered.
            guard let (status, why) = handshakeRefusal(wsi) else { return 0 }
            logger.info("refused \(why)")
            _ = lws_return_http_status(wsi, status, nil)
            return 1
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            // Checked again in case an upgrade ever reaches here without the confirmation.
            return handshakeRefusal(wsi) == nil ? 0 : 1
        case LWS_CALLBACK_ESTABLISHED:
            opened(wsi)
            return 0
        case LWS_CALLBACK_RECEIVE:
            guard let session = sessions[wsi] else { return -1 }
            return received(session, input: input, length: length)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let session = sessions[wsi] else { return 0 }
            return writable(session)
        case LWS_CALLBACK_CLOSED:
            closed(wsi)
            return 0
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            // Something was published: let every connection see whether it has work.
            // Must return 0, or lws closes its wake-up pipe for good.
            if let context, let protocolInfo = lws_get_protocol(wsi) {
                lws_callback_on_writable_all_protocol(context, protocolInfo)
            }
            return 0
        case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
            let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            guard publicFiles.allows(path) else {
                logger.info("refused GET \(path.prefix(200)): it resolves outside \(publicFiles.root)")
                _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_NOT_FOUND.rawValue), nil)
                return 1
            }
            return 0
        case LWS_CALLBACK_HTTP:
            return serveHTTP(wsi, path: input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "")
        case LWS_CALLBACK_HTTP_WRITEABLE:
            if let body = pendingHTTP.removeValue(forKey: wsi) { return writeHTTPBody(wsi, body) }
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        case LWS_CALLBACK_CLOSED_HTTP:
            pendingHTTP.removeValue(forKey: wsi)
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    /// Why a WebSocket handshake must be refused, with the HTTP status to answer; nil to serve it.
    private func handshakeRefusal(_ wsi: OpaquePointer) -> (status: UInt32, why: String)? {
        guard shutdownDeadline == nil else { return (503, "WebSocket: the server is shutting down") }
        let path = header(wsi, WSI_TOKEN_GET_URI) ?? ""
        guard path == Server.websocketPath else {
            return (404, "WebSocket at \(path.prefix(100)): the endpoint is \(Server.websocketPath)")
        }
        let origin = header(wsi, WSI_TOKEN_ORIGIN)
        if case .refused(let why) = config.originPolicy.verdict(origin: origin, host: header(wsi, WSI_TOKEN_HOST)) {
            return (403, "WebSocket from \(peerAddress(wsi)): \(why)")
        }
        guard sessions.count < config.limits.maxClients else {
            return (503, "WebSocket from \(peerAddress(wsi)): \(config.limits.maxClients) clients already (--max-clients)")
        }
        return nil
    }

    func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0, length < 8192 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func peerAddress(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func opened(_ wsi: OpaquePointer) {
        clientCounter += 1
        let client = "c\(clientCounter)"
        let mailbox = Mailbox(maxEventBacklog: config.limits.maxEventBacklog, encoder: eventMessages)
        // Read before subscribing: every event this frame depends on was published before it
        // was stored, so it is in the replay below, and the frame may follow hello at once.
        let initialFrame = frames.current
        let (subscription, replayed) = bus.subscribe(.all, replayLast: config.limits.replayBuffer) { envelope in
            mailbox.pushEvent(envelope)
        }
        mailbox.skipEvents(through: replayed.last?.seq ?? 0)
        let session = Session(wsi: wsi, client: client, peer: peerAddress(wsi), mailbox: mailbox,
                              bucket: TokenBucket(rate: config.limits.messagesPerSecond,
                                                  burst: config.limits.messageBurst, now: Self.seconds()))
        session.subscription = subscription
        sessions[wsi] = session
        let current = status.current
        if let initialFrame {
            mailbox.pushFront(initialFrame.withIDs)
            session.sentFrameSerial = initialFrame.serial
            session.sentVersion = initialFrame.version
        }
        mailbox.pushFront(OutgoingMessage(ServerMessages.hello(
            client: client, clients: sessions.count, status: current, limits: config.limits, events: replayed)))
        logger.info("\(client) connected from \(session.peer) (\(Self.clientCount(sessions.count)))")
        bus.publish(LayoutEvent(kind: .joined, by: client, tick: current.tick,
                                detail: .membership(client: client, clients: sessions.count)))
        wakeAllSessions()
    }

    private func closed(_ wsi: OpaquePointer) {
        guard let session = sessions.removeValue(forKey: wsi) else { return }
        session.subscription?.cancel()
        session.subscription = nil
        logger.info("\(session.client) disconnected (\(Self.clientCount(sessions.count)))")
        bus.publish(LayoutEvent(kind: .left, by: session.client, tick: status.current.tick,
                                detail: .membership(client: session.client, clients: sessions.count)))
        wakeAllSessions()
    }

    func wakeAllSessions() {
        for session in sessions.values { lws_callback_on_writable(session.wsi) }
    }

    static func clientCount(_ count: Int) -> String { count == 1 ? "1 client" : "\(count) clients" }

    static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    // MARK: - Stats

    func statsTimerFired() {
        let message = OutgoingMessage(statsJSON())
        for session in sessions.values {
            session.mailbox.setStats(message)
            lws_callback_on_writable(session.wsi)
        }
        armStatsTimer()
    }

    func statsJSON() -> [UInt8] {
        let uptime = Int((DispatchTime.now().uptimeNanoseconds - startedAt.uptimeNanoseconds) / 1_000_000_000)
        return ServerMessages.stats(status.current, clients: sessions.count, uptimeSeconds: uptime)
    }
}
