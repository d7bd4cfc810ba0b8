import ArgumentParser
import Foundation
import LoadTool

struct Load: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open many WebSocket clients against a running server and print one JSON line of figures."
    )

    @Option(help: "The server's WebSocket address.")
    var url = "ws://127.0.0.1:8080/ws"

    @Option(help: "Clients that read everything.")
    var clients = 200

    @Option(help: "Clients that never read (they test that slow consumers cost the others nothing).")
    var stalled = 0

    @Option(help: "Seconds to measure, after the warm-up.")
    var seconds = 60.0

    @Option(help: "Seconds between connecting and measuring.")
    var warmup = 5.0

    @Option(help: "First add this many cells and set threshold 0 so they keep moving (default: leave the layout as it is).")
    var cells: Int?

    func validate() throws {
        guard clients >= 1, stalled >= 0, clients + stalled <= 5000 else {
            throw ValidationError("--clients must be at least 1 and --clients + --stalled at most 5000")
        }
        guard seconds > 0, warmup >= 0 else { throw ValidationError("--seconds must be positive, --warmup not negative") }
        if let cells, cells < 1 { throw ValidationError("--cells must be at least 1") }
        do {
            _ = try WebSocketURL(url)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        var options = LoadClients.Options(url: try WebSocketURL(url))
        options.clients = clients
        options.stalled = stalled
        options.seconds = seconds
        options.warmupSeconds = warmup
        options.cells = cells
        do {
            let report = try LoadClients(options: options).run()
            FileHandle.standardOutput.write(Data((report.jsonLine + "\n").utf8))
        } catch {
            FileHandle.standardError.write(Data("forcelayout load: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
