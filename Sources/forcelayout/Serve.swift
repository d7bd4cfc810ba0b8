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

    @Option(help: "Largest attrs of one cell or link in bytes (its JSON encoded without spaces): the user's data kept beside label, colour and group.")
    var maxAttrBytes = Self.defaults.limits.maxAttrBytes

    @Option(help: "Messages a second each connection may send, sustained (token bucket).")
    var messagesPerSecond = Self.defaults.limits.messagesPerSecond

    @Option(help: "Messages a connection may send in a burst.")
    var messageBurst = Self.defaults.limits.messageBurst

    @Option(help: "Recent events kept for late joiners (hello) and replay.")
    var replayBuffer = Self.defaults.limits.replayBuffer

    @Option(help: "Bytes of recent events kept for late joiners (hello) and replay: the most history a hello carries.")
    var replayBytes = Self.defaults.limits.replayBytes

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

    @Option(help: "Most rooms in memory at once. At the cap a room nobody is in makes way (saved and unloaded with --state-dir; without it, evicted with its cells after --room-evict-seconds empty); with none, a handshake that would make one more gets 503.")
    var maxRooms = Self.defaults.limits.maxRooms

    @Option(help: "Most rooms in memory one address (an IPv6 /64) may have created; one more gets 429 (default: a quarter of --max-rooms, at least 16 or all of them when fewer).")
    var maxRoomsPerAddress: Int?

    @Option(help: "Seconds a room without a file (no --state-dir) must have been empty before it may be evicted, its cells lost, to make way for another room at --max-rooms.")
    var roomEvictSeconds = Self.defaults.roomEvictSeconds

    @Option(help: "Days a forgotten room's file is kept in STATE_DIR/.forgotten/ (move it back to restore the room) before it is deleted; fractions allowed.")
    var forgottenRetentionDays = Self.defaults.forgottenRetentionSeconds / 86_400

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

    @Option(help: "Seconds after its last client left that a room with no cells is forgotten (its file moved aside, see --forgotten-retention-days).")
    var roomForgetSeconds = Self.defaults.roomForgetSeconds

    @Option(help: "Threads that step the rooms (default: one per core).")
    var stepThreads: Int?

    @Option(help: "Seed for the random source (default: random).")
    var seed: UInt64?

    @Option(help: ArgumentHelp("Join the cluster of servers sharing this Redis (redis://[USER@]HOST[:PORT][/DB]): rooms are stepped by one server and watched from any; their state lives in Redis. Its password comes from --redis-password-file or $FORCELAYOUT_REDIS_PASSWORD, never the URL; its user from the URL or $FORCELAYOUT_REDIS_USER.",
                               valueName: "url"))
    var redis: String?

    @Option(help: ArgumentHelp("File holding the password of the cluster's Redis (one line), sent with AUTH on every connection.",
                               valueName: "path"))
    var redisPasswordFile: String?

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
        guard (2...65_536).contains(maxAttrBytes) else { throw ValidationError("--max-attr-bytes must be in 2...65536") }
        guard messagesPerSecond > 0, messagesPerSecond.isFinite, messageBurst >= 1, messageBurst.isFinite else {
            throw ValidationError("--messages-per-second must be positive and --message-burst at least 1")
        }
        guard (1...100_000).contains(replayBuffer) else { throw ValidationError("--replay-buffer must be in 1...100000") }
        guard (0...(1 << 30)).contains(replayBytes) else { throw ValidationError("--replay-bytes must be in 0...1073741824") }
        guard maxEventBacklog >= 16 else { throw ValidationError("--max-event-backlog must be at least 16") }
        guard maxConnections >= maxClients else {
            throw ValidationError("--max-connections (\(maxConnections)) must be at least --max-clients (\(maxClients))")
        }
        guard maxConnectionsPerAddress >= 1 else { throw ValidationError("--max-connections-per-address must be at least 1") }
        guard (1...3600).contains(requestTimeout) else { throw ValidationError("--request-timeout must be in 1...3600 seconds") }
        guard maxQueuedBytes >= 65_536 else { throw ValidationError("--max-queued-bytes must be at least 65536") }
        guard maxRooms >= 1 else { throw ValidationError("--max-rooms must be at least 1") }
        if let maxRoomsPerAddress, maxRoomsPerAddress < 1 { throw ValidationError("--max-rooms-per-address must be at least 1") }
        guard roomEvictSeconds >= 1 else { throw ValidationError("--room-evict-seconds must be at least 1") }
        guard forgottenRetentionDays >= 0, forgottenRetentionDays <= 36_500 else {
            throw ValidationError("--forgotten-retention-days must be in 0...36500")
        }
        guard roomsPerMinute >= 1 else { throw ValidationError("--rooms-per-minute must be at least 1") }
        guard maxTotalCells >= 1 else { throw ValidationError("--max-total-cells must be at least 1") }
        guard roomIdleSeconds >= 1 else { throw ValidationError("--room-idle-seconds must be at least 1") }
        guard maxExportsPerAddress >= 1 else { throw ValidationError("--max-exports-per-address must be at least 1") }
        guard maxExportBytes >= 1 << 20 else { throw ValidationError("--max-export-bytes must be at least 1048576") }
        guard roomForgetSeconds >= 1 else { throw ValidationError("--room-forget-seconds must be at least 1") }
        if let stepThreads, !(1...64).contains(stepThreads) { throw ValidationError("--step-threads must be in 1...64") }
        if let redis {
            _ = try redisAddress(redis)
            if let problem = ClusterConfig.limitsProblem(limits) { throw ValidationError(problem) }
            guard state == nil, stateDir == nil else {
                throw ValidationError("--state and --state-dir do not go with --redis: in a cluster, rooms are kept in Redis")
            }
        } else if redisPasswordFile != nil {
            throw ValidationError("--redis-password-file is the password of a cluster's Redis: it needs --redis")
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
        // A file size limit (`ulimit -f`) makes a state file's write fail with EFBIG, which the
        // room reports as it reports a full disk (`unsaved`), instead of killing the server.
        signal(SIGXFSZ, SIG_IGN)
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
        config.roomEvictSeconds = roomEvictSeconds
        config.forgottenRetentionSeconds = forgottenRetentionDays * 86_400
        config.stepThreads = stepThreads
        config.seed = seed
        if let redis {
            config.cluster = ClusterConfig(redis: try redisAddress(redis), node: node ?? Self.defaultNodeName(port: port))
        }
        return config
    }

    /// `--redis` with its credentials (`RedisCredentials`: the password from a file or the environment).
    private func redisAddress(_ url: String) throws -> RedisAddress {
        do {
            return try RedisCredentials.resolve(try RedisAddress(parsing: url), passwordFile: redisPasswordFile,
                                                environment: ProcessInfo.processInfo.environment) { path in
                Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        } catch let error as RedisAddress.Malformed {
            throw ValidationError(error.description)
        } catch let error as RedisCredentials.Problem {
            throw ValidationError(error.description)
        }
    }

    private var limits: Limits {
        var limits = Limits()
        limits.maxCells = maxCells
        limits.maxClients = maxClients
        limits.maxAddPerMessage = min(maxAddPerMessage, maxCells)
        limits.maxLinks = maxLinks
        limits.maxMessageBytes = maxMessageBytes
        limits.maxAttrBytes = maxAttrBytes
        limits.messagesPerSecond = messagesPerSecond
        limits.messageBurst = messageBurst
        limits.replayBuffer = replayBuffer
        limits.replayBytes = replayBytes
        limits.maxEventBacklog = maxEventBacklog
        limits.maxConnections = maxConnections
        limits.maxConnectionsPerAddress = maxConnectionsPerAddress
        limits.requestTimeout = requestTimeout
        limits.maxQueuedBytes = maxQueuedBytes
        limits.maxRooms = maxRooms
        limits.roomsPerMinute = roomsPerMinute
        limits.maxRoomsPerAddress = maxRoomsPerAddress ?? Self.defaultRoomsPerAddress(maxRooms: maxRooms)
        limits.maxTotalCells = maxTotalCells
        limits.roomIdleSeconds = roomIdleSeconds
        limits.maxExportsPerAddress = maxExportsPerAddress
        limits.maxExportBytes = maxExportBytes
        return limits
    }

    /// A quarter of the rooms, but at least 16 (all of them when there are fewer).
    static func defaultRoomsPerAddress(maxRooms: Int) -> Int {
        max(maxRooms / 4, min(16, maxRooms))
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
