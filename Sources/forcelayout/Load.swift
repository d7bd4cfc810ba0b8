import ArgumentParser
import Foundation
import LoadTool

struct Load: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open many WebSocket clients against a running server and print one JSON line of figures.",
        discussion: """
        The clients are spread over --processes threads, each with a libwebsockets context of its \
        own, and their figures merged; a client reads only the head of each frame (v1: the JSON's \
        first bytes; v2: the binary frame's 40-byte head). With --server-pid the server's CPU \
        (user + system seconds per second, /proc/PID/stat) is reported beside the tool's own. \
        With --slow K: K more clients that read at --slow-fraction of the stream's bandwidth \
        through a small receive buffer, and report the age of the frames they get. \
        With --rooms R: one reading client per room, at the URL's path plus /PREFIX-0001 … \
        (ws://host:port/ws/load-0001), each adding --cells cells to its own room (threshold 0, and \
        --tick-rate if given) before the warm-up. With --rooms R --settle: each adds its cells, \
        waits until its room has settled, and leaves (at most --seconds).
        """
    )

    @Option(name: .customLong("url"), parsing: .singleValue,
            help: "The server's WebSocket address; repeat it for several servers of a cluster (the clients are dealt out over them in turn, the set-up goes to the first).")
    var urls: [String] = []

    private var allURLs: [String] { urls.isEmpty ? ["ws://127.0.0.1:8080/ws"] : urls }

    @Option(name: .customLong("protocol"), help: "1: JSON frames (forcelayout.v1); 2: binary frames (forcelayout.v2).")
    var wireProtocol = 1

    @Option(name: [.customLong("processes"), .customLong("threads")],
            help: "Spread the clients over this many threads, each with its own libwebsockets context (a core each).")
    var processes = 1

    @Option(help: "Clients that read everything (default 200; not with --rooms).")
    var clients: Int?

    @Option(help: "Clients that never read (they test that slow consumers cost the others nothing; not with --rooms).")
    var stalled: Int?

    @Option(help: "Clients that read slowly (see --slow-fraction) and report the age of their frames (not with --rooms).")
    var slow = 0

    @Option(help: "The share of the stream's bandwidth (frame bytes x steps per second) a slow client reads.")
    var slowFraction = 0.25

    @Option(help: "A slow client's socket receive buffer (SO_RCVBUF), in bytes.")
    var slowReceiveBuffer = 2048

    @Option(help: "Seconds to measure, after the warm-up (with --settle: the longest wait).")
    var seconds = 60.0

    @Option(help: "Seconds between connecting and measuring.")
    var warmup = 5.0

    @Option(help: "First add this many cells and set threshold 0 so they keep moving (default: leave the layout as it is; with --rooms: in every room, required).")
    var cells: Int?

    @Option(help: "Ask for this many steps per second along with the cells (default: the layout's own).")
    var tickRate: Double?

    @Option(help: "One reading client per room, in this many rooms of their own.")
    var rooms: Int?

    @Option(help: "The rooms' names: PREFIX-0001, PREFIX-0002, …")
    var roomPrefix = "load"

    @Flag(help: "With --rooms: add the cells without keeping them moving, leave each room once it has settled, and report how long that took.")
    var settle = false

    @Option(help: "The server's process id: report its CPU and memory over the measured window (from /proc).")
    var serverPID: Int32?

    func validate() throws {
        if let rooms {
            guard clients == nil, stalled == nil, slow == 0 else {
                throw ValidationError("--clients, --stalled and --slow do not go with --rooms (one reader per room)")
            }
            guard (1...20_000).contains(rooms) else { throw ValidationError("--rooms must be in 1...20000") }
            guard cells != nil else { throw ValidationError("--rooms needs --cells") }
        } else {
            guard !settle else { throw ValidationError("--settle needs --rooms") }
            guard (clients ?? 200) >= 1, (stalled ?? 0) >= 0, slow >= 0, (clients ?? 200) + (stalled ?? 0) + slow <= 20_000 else {
                throw ValidationError("--clients must be at least 1 and --clients + --stalled + --slow at most 20000")
            }
        }
        try validateRest()
    }

    private func validateRest() throws {
        guard seconds > 0, warmup >= 0 else { throw ValidationError("--seconds must be positive, --warmup not negative") }
        guard WireProtocol(rawValue: wireProtocol) != nil else { throw ValidationError("--protocol must be 1 or 2") }
        guard (1...64).contains(processes) else { throw ValidationError("--processes must be in 1...64") }
        guard slowFraction > 0, slowFraction <= 1 else { throw ValidationError("--slow-fraction must be in (0, 1]") }
        guard slowReceiveBuffer >= 256 else { throw ValidationError("--slow-receive-buffer must be at least 256") }
        if let cells, cells < 1 { throw ValidationError("--cells must be at least 1") }
        if let tickRate, !(tickRate > 0 && tickRate.isFinite) { throw ValidationError("--tick-rate must be positive") }
        do {
            for url in allURLs { _ = try WebSocketURL(url) }
            if rooms != nil, allURLs.count > 1 { throw ValidationError("--rooms takes one --url") }
            if let rooms { _ = try RoomPlan(rooms: rooms, prefix: roomPrefix) }
        } catch let error as CustomStringConvertible {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        do {
            let options = try loadOptions()
            let line = settle ? try LoadRun.settle(options).jsonLine : try LoadRun.run(options).jsonLine
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        } catch {
            FileHandle.standardError.write(Data("forcelayout load: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    private func loadOptions() throws -> LoadOptions {
        var options = LoadOptions(urls: try allURLs.map { try WebSocketURL($0) })
        options.clients = clients ?? 200
        options.stalled = stalled ?? 0
        options.slow = slow
        options.slowFraction = slowFraction
        options.slowReceiveBuffer = slowReceiveBuffer
        options.seconds = seconds
        options.warmupSeconds = warmup
        options.cells = cells
        options.tickRate = tickRate
        options.rooms = try rooms.map { try RoomPlan(rooms: $0, prefix: roomPrefix) }
        options.settle = settle
        options.serverPID = serverPID
        options.wireProtocol = WireProtocol(rawValue: wireProtocol) ?? .v1
        options.processes = processes
        return options
    }
}
