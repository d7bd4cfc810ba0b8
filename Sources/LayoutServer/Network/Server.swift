import CLibWebSockets
import Dispatch
import EventBus
import ForceLayout
import Foundation
import LayoutCluster
import LayoutCore
import LayoutRooms
import Logging
import Prometheus
import Synchronization

/// The libwebsockets server: static files from `Public/` (and the page of every room at
/// `/r/NAME`), `GET /stats` and `GET /rooms`, and the layout protocol at `/ws` (room `main`)
/// and `/ws/NAME`. Everything in here runs on the service thread (the thread that
/// calls `run()`), except `StopSwitch`, which signal handlers use to ask it to stop.
public final class Server {
    public static let protocolName = Subprotocol.v1.rawValue
    package static let statsPath = "/stats"
    static let roomsPath = "/rooms"
    static let exportPath = "/export"

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

    let config: ServerConfig
    let logger: Logger
    public let stopSwitch = StopSwitch()

    let allocations = CAllocations()
    var context: OpaquePointer?
    private(set) var waker: ServiceWaker?
    var statsTimer: ServiceTimer?
    let startedAt = DispatchTime.now()
    /// The same moment on the wall clock, seconds since 1970 (`process_start_time_seconds`).
    let startedAtEpochSeconds = Date().timeIntervalSince1970

    let decoder: MessageDecoder
    /// What `GET /metrics` shows (`MetricCatalogue`), and the service thread's own counters.
    let metricsRegistry: PrometheusCollectorRegistry
    let metrics: ServerMetrics
    let publicFiles: PublicFiles
    let overflowAlarm = OverflowAlarm()
    let host: RoomHost
    /// Rebuilds moments of rooms' histories for clients that scrub, off this thread.
    let historyReader = HistoryReader()
    /// This server's part in the cluster (`--redis`); nil: a server on its own. The rooms see
    /// it as their `RoomCluster`.
    let cluster: ClusterNode?

    /// The WebSocket sessions, by wsi, client id and room.
    var sessions = SessionDirectory<Session>()
    /// Handshakes admitted to a room (and counted in it) that are not WebSockets yet.
    var joining: [OpaquePointer: Joining] = [:]
    var connections: ConnectionTable
    /// Each admitted connection's id in `connections`, both ways.
    var connectionIDs = TwoWayMap<OpaquePointer, ConnectionTable.ID>()
    /// Accepted sockets admitted but not yet bound to their wsi (a moment, within one accept).
    var acceptedDescriptors: [Int32: ConnectionTable.ID] = [:]
    var rawRefusals: [OpaquePointer: HTTPResponse.Refusal] = [:]
    var refusals = RefusalTally()
    var connectionsClosedSinceSweep = false
    var sweepTimer: ServiceTimer?
    /// Bodies being written, a chunk per writable, through one chunk buffer.
    var pendingHTTP: [OpaquePointer: BodyWrite] = [:]
    let chunkBuffer = ChunkBuffer()
    /// Exports under way (`Server+Export`), which connection each request token answers, and
    /// the connections waiting for each room file's export job.
    var exports: [OpaquePointer: ExportRequest] = [:]
    var exportTokens: [Int: OpaquePointer] = [:]
    var nextExportToken = 0
    var fileExportJobs: [ExportKey: [OpaquePointer]] = [:]
    /// Room files' export documents connections are still writing, with their file's stamp.
    var heldFileDocuments: [ExportKey: (stamp: FileStamp, body: HTTPBody, access: RoomAccess)] = [:]
    /// Each room's last export document size by format (`ExportBudget`'s expectation).
    var lastDocumentSizes: [ExportKey: Int] = [:]
    var exportBudget: ExportBudget
    let readyExports = ReadyExports()
    let fileExports = FileExports()
    /// The mount of `Public/`, whose MIME table `/r/FILE` uses too.
    var filesMount: UnsafePointer<lws_http_mount>?
    /// The numbers of client ids, never repeated across restarts where rooms (and so the
    /// owners of their cells) are kept (`ClientNumbers`).
    let clientNumbers: ClientNumbers
    /// In a cluster: whether Redis was reachable when last heard of.
    var clusterLinked = true
    /// Once asked to stop: how the drain goes on (`Server+Draining.swift`); nil while serving.
    var drain: DrainPlan?

    /// Lists the rooms on disk (after removing the temporary files crashed writes left) and
    /// checks room `main`'s file; fails with a clear message when that one is unusable.
    /// `metrics`: the factory `serve` bootstrapped swift-metrics with (the rooms and the cluster
    /// count through it too); its registry is what `GET /metrics` shows.
    public init(config: ServerConfig, logger: Logger, metrics: CatalogueMetricsFactory) throws(StartFailure) {
        let config = try Self.fittingDescriptors(config, logger: logger)
        connections = ConnectionTable(policy: .init(
            maxConnections: config.limits.maxConnections, maxPerAddress: config.limits.maxConnectionsPerAddress,
            maxDescriptors: DescriptorBudget.maxDescriptors(maxConnections: config.limits.maxConnections),
            timeout: Double(config.limits.requestTimeout)))
        exportBudget = ExportBudget(policy: .init(maxPerAddress: config.limits.maxExportsPerAddress,
                                                  maxBytes: config.limits.maxExportBytes))
        self.config = config
        self.logger = logger
        decoder = MessageDecoder(limits: config.limits)
        metricsRegistry = metrics.registry
        self.metrics = ServerMetrics(factory: metrics)
        RoomMetrics.prepare()
        if config.cluster != nil { ClusterMetrics.prepare() }
        publicFiles = PublicFiles(root: config.publicDirectory)
        cluster = config.cluster.map { ClusterNode(config: $0, limits: config.limits, logger: logger) }
        clientNumbers = try Self.clientNumbers(config, logger: logger)
        host = RoomHost(config: config, cluster: cluster, logger: logger)
        try host.loadMain()
    }

    /// Client numbers reserved where this server keeps its rooms: in a cluster's Redis, in the
    /// state directory (or beside `--state`'s file); without either nothing is restored, and
    /// numbers start at 1.
    private static func clientNumbers(_ config: ServerConfig, logger: Logger) throws(StartFailure) -> ClientNumbers {
        let store: any ClientReservationStore
        if let cluster = config.cluster {
            store = ClientReservationKey(address: cluster.redis, node: cluster.node)
        } else if let path = ClientReservationFile.path(directory: config.stateDirectory, statePath: config.statePath) {
            store = ClientReservationFile(path: path)
        } else {
            return ClientNumbers(logger: logger)
        }
        do throws(StoreFailure) {
            return try ClientNumbers(store: store, logger: logger)
        } catch {
            throw StartFailure(description: "cannot reserve client ids: \(error)")
        }
    }

    /// `config` with its connection limits lowered to what the open-file limit (raised to the
    /// hard limit first) can hold.
    private static func fittingDescriptors(_ config: ServerConfig, logger: Logger) throws(StartFailure) -> ServerConfig {
        var config = config
        let openFiles = DescriptorBudget.raiseOpenFileLimit()
        let fitting = DescriptorBudget.maxConnections(openFiles: openFiles)
        guard fitting >= 16 else {
            throw StartFailure(description: "the open-file limit (ulimit -n) is \(openFiles): too low to serve; raise it")
        }
        if config.limits.maxConnections > fitting {
            logger.warning("--max-connections \(config.limits.maxConnections) lowered to \(fitting): the open-file limit (ulimit -n) is \(openFiles)")
            config.limits.maxConnections = fitting
        }
        if config.limits.maxClients > config.limits.maxConnections {
            logger.warning("--max-clients \(config.limits.maxClients) lowered to --max-connections \(config.limits.maxConnections)")
            config.limits.maxClients = config.limits.maxConnections
        }
        return config
    }

    /// Binds, starts the stepping threads and returns the URL it serves.
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
        let handle = ContextHandle(pointer: context)
        let waker = ServiceWaker { lws_cancel_service(handle.pointer) }
        self.waker = waker
        stopSwitch.waker.withLock { $0 = waker }
        scheduleStatsTimer()
        scheduleSweepTimer()
        host.start(waker: waker)
        readyExports.attach(waker)
        fileExports.attach(waker)
        let host = config.host.contains(":") ? "[\(config.host)]" : config.host
        return "\(config.tls == nil ? "http" : "https")://\(host):\(config.port)/"
    }

    /// Services connections until a stop is requested, then drains (`beginShutdown`),
    /// stops stepping, writes every room's file and releases the context.
    public func run() {
        guard let context else { return }
        while true {
            if lws_service(context, 0) < 0 { break }
            cluster?.serviceCameRound()
            if stopSwitch.isRequested {
                if drain == nil { beginShutdown() }
                continueDraining()
                let handedOff = host.handingOff.wait(timeout: .now()) == .success
                if let drain, drain.isOver(now: Uptime.seconds(), finished: sessions.isEmpty && handedOff) { break }
            }
        }
        statsTimer?.cancel()
        sweepTimer?.cancel()
        host.stop()
        // The file reader may still finish a job: it must not wake a context that is gone.
        readyExports.detach()
        fileExports.detach()
        host.loads.detach()
        lws_context_destroy(context)
        self.context = nil
        statsTimer = nil
        sweepTimer = nil
    }
}
