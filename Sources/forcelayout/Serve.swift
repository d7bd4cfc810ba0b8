import ArgumentParser
import Dispatch
import Foundation
import LayoutServer
import Logging

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the page and the shared layout (the default command)."
    )

    /// Where every option's default comes from: `ServerConfig` and `Limits` say it once.
    private static let defaults = ServerConfig(publicDirectory: "")

    @Option(help: "Address to listen on. Loopback by default; 0.0.0.0 exposes the layout to your network.")
    var host = Self.defaults.host

    @Option(help: "TCP port for HTTP and WebSocket.")
    var port = Self.defaults.port

    @Option(name: .customLong("public"), help: "Folder served at / (default: the checkout's Public/).")
    var publicDirectory: String?

    @Option(help: "Most cells the layout may hold.")
    var maxCells = Self.defaults.limits.maxCells

    @Option(help: "Most WebSocket clients served at once; one more is refused with HTTP 503.")
    var maxClients = Self.defaults.limits.maxClients

    @Option(help: "Most TCP connections held at once, WebSockets or not (at least --max-clients); at the cap the oldest connection that is not a WebSocket makes room, else one more is refused.")
    var maxConnections = Self.defaults.limits.maxConnections

    @Option(help: "Most TCP connections from one address (an IPv6 /64) at once; at the cap its oldest connection that is not a WebSocket makes room, else one more is refused.")
    var maxConnectionsPerAddress = Self.defaults.limits.maxConnectionsPerAddress

    @Option(help: "Seconds a connection that is not a WebSocket may go without a complete request before it is closed.")
    var requestTimeout = Self.defaults.limits.requestTimeout

    @Option(help: "Bytes queued for one connection (events, replies, the message being written) before it is closed with 1008.")
    var maxQueuedBytes = Self.defaults.limits.maxQueuedBytes

    @Option(help: "Most cells one add message may ask for (at most --max-cells).")
    var maxAddPerMessage = Self.defaults.limits.maxAddPerMessage

    @Option(help: "Most links one room may hold (0: no links).")
    var maxLinks = Self.defaults.limits.maxLinks

    @Option(help: "Largest client message in bytes; a larger one closes its connection with 1009.")
    var maxMessageBytes = Self.defaults.limits.maxMessageBytes

    @Option(help: "Messages a second each connection may send, sustained (token bucket).")
    var messagesPerSecond = Self.defaults.limits.messagesPerSecond

    @Option(help: "Messages a connection may send in a burst.")
    var messageBurst = Self.defaults.limits.messageBurst

    @Option(help: "Recent events kept for late joiners (hello) and replay.")
    var replayBuffer = Self.defaults.limits.replayBuffer

    @Option(help: "Events waiting for one connection before it is closed with 1008 (too slow).")
    var maxEventBacklog = Self.defaults.limits.maxEventBacklog

    @Option(name: .customLong("allow-origin"), parsing: .singleValue,
            help: ArgumentHelp("Also accept WebSocket handshakes from pages of this origin (scheme://host[:port]); repeatable; '*' accepts every origin.",
                               valueName: "origin"))
    var allowOrigins: [String] = []

    @Option(help: "Keep each room in DIR/NAME.json: saved about once a second while it changes and on shutdown, loaded when a client joins it.")
    var stateDir: String?

    @Option(help: "Room main's file (wins over --state-dir for it): a state file of an earlier version loads as room main.")
    var state: String?

    @Option(help: "Most rooms in memory at once; a handshake that would make one more gets 503.")
    var maxRooms = Self.defaults.limits.maxRooms

    @Option(help: "New rooms one address may create in a minute; beyond that the handshake gets 429.")
    var roomsPerMinute = Self.defaults.limits.roomsPerMinute

    @Option(help: "Most cells of all rooms in memory together (--max-cells bounds each room).")
    var maxTotalCells = Self.defaults.limits.maxTotalCells

    @Option(help: "Seconds a settled room with no clients stays in memory before it is saved and unloaded (rooms with a file only).")
    var roomIdleSeconds = Self.defaults.limits.roomIdleSeconds

    @Option(help: "Exports (GET /export/...) one address may have under way at once; one more is answered 429.")
    var maxExportsPerAddress = Self.defaults.limits.maxExportsPerAddress

    @Option(help: "Bytes of export documents held for clients still downloading them; past it a new export is answered 503.")
    var maxExportBytes = Self.defaults.limits.maxExportBytes

    @Option(help: "Seconds after its last client left that a room with no cells is forgotten (and its file deleted).")
    var roomForgetSeconds = Self.defaults.roomForgetSeconds

    @Option(help: "Threads that step the rooms (default: one per core).")
    var stepThreads: Int?

    @Option(help: "Seed for the random source (default: random).")
    var seed: UInt64?

    @Option(help: ArgumentHelp("Join the cluster of servers sharing this Redis (redis://[:PASSWORD@]HOST[:PORT][/DB]): rooms are stepped by one server and watched from any; their state lives in Redis.",
                               valueName: "url"))
    var redis: String?

    @Option(help: "This server's name in the cluster (1 to 32 of a-z, 0-9, -, _; unique among the servers; default: HOSTNAME-PORT).")
    var node: String?

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be in 1...65535") }
        guard maxCells >= 1 else { throw ValidationError("--max-cells must be at least 1") }
        guard maxClients >= 1 else { throw ValidationError("--max-clients must be at least 1") }
        guard maxAddPerMessage >= 1 else { throw ValidationError("--max-add-per-message must be at least 1") }
        guard maxLinks >= 0 else { throw ValidationError("--max-links must be at least 0") }
        guard (1024...(16 << 20)).contains(maxMessageBytes) else {
            throw ValidationError("--max-message-bytes must be in 1024...16777216")
        }
        guard messagesPerSecond > 0, messagesPerSecond.isFinite, messageBurst >= 1, messageBurst.isFinite else {
            throw ValidationError("--messages-per-second must be positive and --message-burst at least 1")
        }
        guard (1...100_000).contains(replayBuffer) else { throw ValidationError("--replay-buffer must be in 1...100000") }
        guard maxEventBacklog >= 16 else { throw ValidationError("--max-event-backlog must be at least 16") }
        guard maxConnections >= maxClients else {
            throw ValidationError("--max-connections (\(maxConnections)) must be at least --max-clients (\(maxClients))")
        }
        guard maxConnectionsPerAddress >= 1 else { throw ValidationError("--max-connections-per-address must be at least 1") }
        guard (1...3600).contains(requestTimeout) else { throw ValidationError("--request-timeout must be in 1...3600 seconds") }
        guard maxQueuedBytes >= 65_536 else { throw ValidationError("--max-queued-bytes must be at least 65536") }
        guard maxRooms >= 1 else { throw ValidationError("--max-rooms must be at least 1") }
        guard roomsPerMinute >= 1 else { throw ValidationError("--rooms-per-minute must be at least 1") }
        guard maxTotalCells >= 1 else { throw ValidationError("--max-total-cells must be at least 1") }
        guard roomIdleSeconds >= 1 else { throw ValidationError("--room-idle-seconds must be at least 1") }
        guard maxExportsPerAddress >= 1 else { throw ValidationError("--max-exports-per-address must be at least 1") }
        guard maxExportBytes >= 1 << 20 else { throw ValidationError("--max-export-bytes must be at least 1048576") }
        guard roomForgetSeconds >= 1 else { throw ValidationError("--room-forget-seconds must be at least 1") }
        if let stepThreads, !(1...64).contains(stepThreads) { throw ValidationError("--step-threads must be in 1...64") }
        if let redis {
            do {
                _ = try RedisAddress(parsing: redis)
            } catch {
                throw ValidationError(error.description)
            }
            guard state == nil, stateDir == nil else {
                throw ValidationError("--state and --state-dir do not go with --redis: in a cluster, rooms are kept in Redis")
            }
        }
        if let node {
            guard redis != nil else { throw ValidationError("--node names a server of a cluster: it needs --redis") }
            guard ClusterConfig.validNodeName(node) else {
                throw ValidationError("--node must be 1 to 32 of a-z, 0-9, - and _")
            }
        }
        do {
            _ = try OriginPolicy(allowing: allowOrigins)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        // Before any thread exists, so every thread inherits the blocked mask and a signal
        // that arrives early waits for `sigwait` instead of being lost or killing the process.
        let stopSignals = Self.blockStopSignals()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "forcelayout")
        let config = try serverConfig()
        if let problem = config.cluster?.joinProblem() {
            FileHandle.standardError.write(Data("forcelayout: \(problem)\n".utf8))
            throw ExitCode(2)
        }
        let server: Server
        let url: String
        do {
            server = try Server(config: config, logger: logger)
            url = try server.start()
        } catch {
            FileHandle.standardError.write(Data("forcelayout: \(error)\n".utf8))
            throw ExitCode.failure
        }
        if !config.originPolicy.loopbackOnly {
            logger.warning("listening on \(host), not loopback only: anyone who can reach this address can change the layout")
        }
        Self.waitForStopSignals(stopSignals, then: server.stopSwitch)
        // Written unbuffered: scripts and tests wait for this line on a pipe.
        FileHandle.standardOutput.write(Data("listening on \(url)\n".utf8))
        server.run()
        logger.info("stopped")
    }

    /// What the options say, for `Server`.
    private func serverConfig() throws -> ServerConfig {
        var config = ServerConfig(publicDirectory: resolvedPublicDirectory())
        config.host = host
        config.port = port
        config.limits = limits
        do {
            config.originPolicy = try OriginPolicy(allowing: allowOrigins, loopbackOnly: OriginPolicy.isLoopback(host.lowercased()))
        } catch {
            throw ValidationError(error.description)
        }
        config.statePath = state.map { URL(fileURLWithPath: $0).path }
        config.stateDirectory = stateDir.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        config.roomForgetSeconds = roomForgetSeconds
        config.stepThreads = stepThreads
        config.seed = seed
        if let redis {
            config.cluster = ClusterConfig(redis: try RedisAddress(parsing: redis), node: node ?? Self.defaultNodeName(port: port))
        }
        return config
    }

    private var limits: Limits {
        var limits = Limits()
        limits.maxCells = maxCells
        limits.maxClients = maxClients
        limits.maxAddPerMessage = min(maxAddPerMessage, maxCells)
        limits.maxLinks = maxLinks
        limits.maxMessageBytes = maxMessageBytes
        limits.messagesPerSecond = messagesPerSecond
        limits.messageBurst = messageBurst
        limits.replayBuffer = replayBuffer
        limits.maxEventBacklog = maxEventBacklog
        limits.maxConnections = maxConnections
        limits.maxConnectionsPerAddress = maxConnectionsPerAddress
        limits.requestTimeout = requestTimeout
        limits.maxQueuedBytes = maxQueuedBytes
        limits.maxRooms = maxRooms
        limits.roomsPerMinute = roomsPerMinute
        limits.maxTotalCells = maxTotalCells
        limits.roomIdleSeconds = roomIdleSeconds
        limits.maxExportsPerAddress = maxExportsPerAddress
        limits.maxExportBytes = maxExportBytes
        return limits
    }

    /// `HOSTNAME-PORT`, lowercased, with what a node name cannot hold dropped.
    private static func defaultNodeName(port: Int) -> String {
        let host = ProcessInfo.processInfo.hostName.lowercased().split(separator: ".").first.map(String.init) ?? "node"
        let kept = host.filter { ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") && $0.isASCII }
        return String("\(kept.isEmpty ? "node" : kept)".prefix(25)) + "-\(port)"
    }

    /// The checkout's Public/ folder, found from this source file's location, else ./Public.
    private func resolvedPublicDirectory() -> String {
        if let publicDirectory { return URL(fileURLWithPath: publicDirectory).standardizedFileURL.path }
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidate = checkout.appendingPathComponent("Public").path
        if FileManager.default.fileExists(atPath: candidate) { return candidate }
        return URL(fileURLWithPath: "Public").standardizedFileURL.path
    }

    private static func blockStopSignals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        return set
    }

    /// A thread that takes SIGINT and SIGTERM (pending ones too) and asks the server to stop.
    private static func waitForStopSignals(_ set: sigset_t, then stopSwitch: Server.StopSwitch) {
        let thread = Thread {
            var set = set
            while true {
                var number: Int32 = 0
                if sigwait(&set, &number) == 0 { stopSwitch.requestStop() }
            }
        }
        thread.name = "signals"
        thread.start()
    }
}
