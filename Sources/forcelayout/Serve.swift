import ArgumentParser
import CoreMetrics
import Dispatch
import Foundation
import LayoutCore
import LayoutRooms
import LayoutServer
import Logging

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the page and the shared layout (the default command).",
        discussion: LimitArguments.help
    )

    /// Where every option's default comes from: `ServerConfig` and `Limits` say it once.
    private static let defaults = ServerConfig(publicDirectory: "")

    @Option(help: "Address to listen on. Loopback by default; 0.0.0.0 exposes the layout to your network.")
    var host = Self.defaults.host

    @Option(help: "TCP port for HTTP and WebSocket.")
    var port = Self.defaults.port

    @Option(name: .customLong("public"), help: "Folder served at / (default: the checkout's Public/).")
    var publicDirectory: String?

    @Option(name: .customLong("allow-origin"), parsing: .singleValue,
            help: ArgumentHelp("Also accept WebSocket handshakes from pages of this origin (scheme://host[:port]); repeatable; '*' accepts every origin.",
                               valueName: "origin"))
    var allowOrigins: [String] = []

    @Option(help: "Keep each room in DIR/NAME.json: saved about once a second while it changes and on shutdown, loaded when a client joins it.")
    var stateDir: String?

    @Option(help: "Room main's file (wins over --state-dir for it): a state file of an earlier version loads as room main.")
    var state: String?

    @Option(help: "Seconds a room without a file (no --state-dir) must have been empty before it may be evicted, its cells lost, to make way for another room at --max-rooms.")
    var roomEvictSeconds = Self.defaults.roomEvictSeconds

    @Option(help: "Days a forgotten room's file is kept in STATE_DIR/.forgotten/ (move it back to restore the room) before it is deleted; fractions allowed.")
    var forgottenRetentionDays = Self.defaults.forgottenRetentionSeconds / 86_400

    @Option(help: "Seconds after its last client left that a room with no cells is forgotten (its file moved aside, see --forgotten-retention-days).")
    var roomForgetSeconds = Self.defaults.roomForgetSeconds

    @Option(help: "Seconds a stop (SIGTERM, SIGINT) may take at most: /readyz answers 503 at once; in a cluster clients are told to move (reconnect) within half of it, at most 2 s, and each room goes to another server once its clients here have; every client left is closed with 1012 (reconnect now); the rooms' states are written after it.")
    var drainSeconds = Self.defaults.drainSeconds

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

    /// The limit flags (`--max-cells 40`, …): declared once, in `Limits.table`, and read with it
    /// (`LimitArguments`); `LimitArguments.help` lists them in `serve --help`.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var limitFlags: [String] = []

    @Option(help: ArgumentHelp("Access of rooms made from now on: open (anyone is an editor), view (anyone may watch, edit links change) or private (link holders only). Default: open when listening on loopback, view otherwise. A room's owner changes its own.",
                               valueName: "open|view|private"))
    var defaultAccess: String?

    @Option(help: ArgumentHelp("The least a log line must weigh to be written (standard error): trace, debug, info, notice, warning, error or critical.",
                               valueName: "level"))
    var logLevel: String = "info"

    @Option(help: ArgumentHelp("How log lines are written: text (for people) or json (one object a line: time, level, label, message, metadata; for tools).",
                               valueName: "text|json"))
    var logFormat: String = "text"

    @Option(help: ArgumentHelp("File holding the admin token (one line, 22 to 256 token characters; or $FORCELAYOUT_ADMIN_TOKEN): it is the owner of every room, and GET /rooms lists private rooms to it.",
                               valueName: "path"))
    var adminTokenFile: String?

    @Option(help: ArgumentHelp("Serve https:// and wss:// on the port with this certificate (PEM; a chain after it), through libwebsockets' own TLS. Needs --tls-key.",
                               valueName: "path"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The private key of --tls-cert (PEM).", valueName: "path"))
    var tlsKey: String?

    @Option(help: "This server's name in the cluster (1 to 32 of a-z, 0-9, -, _; unique among the servers; default: HOSTNAME-PORT).")
    var node: String?

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be in 1...65535") }
        let limits = try self.limits()
        guard roomEvictSeconds >= 1 else { throw ValidationError("--room-evict-seconds must be at least 1") }
        guard forgottenRetentionDays >= 0, forgottenRetentionDays <= 36_500 else {
            throw ValidationError("--forgotten-retention-days must be in 0...36500")
        }
        guard roomForgetSeconds >= 1 else { throw ValidationError("--room-forget-seconds must be at least 1") }
        guard (1...3600).contains(drainSeconds) else { throw ValidationError("--drain-seconds must be in 1...3600") }
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
            guard NodeName.isValid(node) else {
                throw ValidationError("--node must be 1 to 32 of a-z, 0-9, - and _")
            }
        }
        do {
            _ = try OriginPolicy(allowing: allowOrigins)
        } catch {
            throw ValidationError(error.description)
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard ["text", "json"].contains(logFormat) else {
            throw ValidationError("--log-format must be text or json")
        }
        if let defaultAccess, AccessMode(rawValue: defaultAccess) == nil {
            throw ValidationError("--default-access must be one of \(AccessMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        _ = try adminToken()
        switch (tlsCert, tlsKey) {
        case (nil, nil):
            break
        case (let cert?, let key?):
            for (flag, path) in [("--tls-cert", cert), ("--tls-key", key)] where !FileManager.default.isReadableFile(atPath: path) {
                throw ValidationError("\(flag) \(path): no readable file there")
            }
        default:
            throw ValidationError("--tls-cert and --tls-key go together: a certificate and its private key")
        }
    }

    func run() throws {
        // Before any thread exists, so every thread inherits the blocked mask and a signal
        // that arrives early waits for `sigwait` instead of being lost or killing the process.
        let stopSignals = Self.blockStopSignals()
        // A file size limit (`ulimit -f`) makes a state file's write fail with EFBIG, which the
        // room reports as it reports a full disk (`unsaved`), instead of killing the server.
        signal(SIGXFSZ, SIG_IGN)
        let level = Logger.Level(rawValue: logLevel) ?? .info  // checked by validate()
        let json = logFormat == "json"
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "forcelayout")
        // Before any room steps: what the rooms and the cluster count goes to GET /metrics.
        let metrics = CatalogueMetricsFactory()
        MetricsSystem.bootstrap(metrics)
        let config = try serverConfig()
        if let problem = config.cluster?.joinProblem() {
            FileHandle.standardError.write(Data("forcelayout: \(problem)\n".utf8))
            throw ExitCode(2)
        }
        let server: Server
        let url: String
        do {
            server = try Server(config: config, logger: logger, metrics: metrics)
            url = try server.start()
        } catch {
            FileHandle.standardError.write(Data("forcelayout: \(error)\n".utf8))
            throw ExitCode.failure
        }
        logger.info("rooms made from now on are \(config.defaultAccess.rawValue) (\(Self.explain(config.defaultAccess)))\(defaultAccess == nil ? ": --default-access" : "")")
        if !config.originPolicy.loopbackOnly {
            if config.defaultAccess == .open {
                logger.warning("listening on \(host), not loopback only, with --default-access open: anyone who can reach this address can change the layout")
            }
            if config.tls == nil {
                logger.warning("listening on \(host) over plain http: room links and the admin token cross the network in clear (use --tls-cert and --tls-key, or a TLS proxy in front: see the README)")
            }
        }
        Self.waitForStopSignals(stopSignals, then: server.stopSwitch)
        // Written unbuffered: scripts and tests wait for this line on a pipe.
        FileHandle.standardOutput.write(Data("listening on \(url)\n".utf8))
        server.run()
        logger.info("stopped")
    }

    private static func explain(_ access: AccessMode) -> String {
        switch access {
        case .open: "anyone is an editor"
        case .view: "anyone may watch; edit links change them"
        case .private: "only link holders get in"
        }
    }

    /// The admin token's digest, if one is given (`AdminToken`).
    private func adminToken() throws -> SecretDigest? {
        do {
            return try AdminToken.resolve(file: adminTokenFile, environment: ProcessInfo.processInfo.environment) { path in
                Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// What the options say, for `Server`.
    private func serverConfig() throws -> ServerConfig {
        var config = ServerConfig(publicDirectory: resolvedPublicDirectory())
        config.host = host
        config.port = port
        config.limits = try limits()
        do {
            config.originPolicy = try OriginPolicy(allowing: allowOrigins, loopbackOnly: OriginPolicy.isLoopback(host.lowercased()))
        } catch {
            throw ValidationError(error.description)
        }
        config.statePath = state.map { URL(fileURLWithPath: $0).path }
        config.stateDirectory = stateDir.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        config.roomForgetSeconds = roomForgetSeconds
        config.drainSeconds = drainSeconds
        config.roomEvictSeconds = roomEvictSeconds
        config.forgottenRetentionSeconds = forgottenRetentionDays * 86_400
        config.stepThreads = stepThreads
        config.seed = seed
        config.chosenAccess = defaultAccess.flatMap(AccessMode.init(rawValue:))
        if let tlsCert, let tlsKey {
            config.tls = (URL(fileURLWithPath: tlsCert).standardizedFileURL.path, URL(fileURLWithPath: tlsKey).standardizedFileURL.path)
        }
        config.adminToken = try adminToken()
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

    /// What the limit flags say (`Limits.table`).
    private func limits() throws -> Limits {
        do {
            return try LimitArguments.limits(from: limitFlags)
        } catch {
            throw ValidationError(error.description)
        }
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
