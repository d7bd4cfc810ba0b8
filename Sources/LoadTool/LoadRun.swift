import CLibWebSockets
import Foundation

/// A whole load run: its shards on their threads (`ShardPlan`, `RunSchedule`), the server
/// sampled at the measured window's ends (`GET /stats`, /proc), and one report of every
/// shard's tallies merged.
public enum LoadRun {
    public typealias Failure = LoadClients.Failure

    /// Connects, warms up, measures, and returns the figures.
    public static func run(_ options: LoadOptions) throws(Failure) -> LoadReport {
        forcelayout_lws_set_log_level(Int32(LLL_ERR))
        let parts = options.parts
        let schedule = RunSchedule(shards: parts.count, warmup: options.warmupSeconds, seconds: options.seconds,
                                   deadline: now() + options.connectSeconds)
        let threads = ShardThreads(parts: parts) { part in
            Result { () throws(Failure) in try LoadClients(options: options, part: part, schedule: schedule).measure() }
        }
        var report = LoadReport(seconds: 0, tallies: [], before: nil, after: nil, rooms: options.rooms?.count)
        report.wireProtocol = options.wireProtocol.rawValue
        // The threads that carry the stream (the slow readers' own shard reads next to nothing).
        report.processes = parts.filter { !$0.readers.isEmpty || $0.stalled > 0 || $0.control }.count
        if let window = schedule.waitForWindow(until: Date(timeIntervalSinceNow: options.connectSeconds + 10)) {
            sleep(until: window.from)
            report.cost.before = .read(serverPID: options.serverPID, at: now())
            report.before = StatsProbe.sample(host: options.url.host, port: options.url.port)
            sleep(until: window.to)
            report.cost.after = .read(serverPID: options.serverPID, at: now())
            report.after = StatsProbe.sample(host: options.url.host, port: options.url.port)
            report.seconds = window.to - window.from
        }
        schedule.release()
        let results = try threads.join()
        if let reason = schedule.stopped { throw Failure(description: reason) }
        guard report.seconds > 0 else { throw Failure(description: "the clients never got to the measured window") }
        report.tallies = merged(results)
        report.ages = FrameAges.merged(results.map(\.ages))
        return report
    }

    /// `settle`: every shard makes its rooms and leaves each once it has settled.
    public static func settle(_ options: LoadOptions) throws(Failure) -> SettleReport {
        forcelayout_lws_set_log_level(Int32(LLL_ERR))
        let parts = options.parts
        let schedule = RunSchedule(shards: parts.count, warmup: 0, seconds: options.seconds, deadline: now())
        var cost = ProcessCost()
        let started = now()
        cost.before = .read(serverPID: options.serverPID, at: started)
        let threads = ShardThreads(parts: parts) { part in
            Result { () throws(Failure) in try LoadClients(options: options, part: part, schedule: schedule).settle() }
        }
        let results = try threads.join()
        cost.after = .read(serverPID: options.serverPID, at: now())
        return SettleReport(cellsPerRoom: options.cells ?? 0, seconds: now() - started, tallies: merged(results), cost: cost)
    }

    /// Every shard's tallies: readers, then slow readers, then stalled clients.
    static func merged(_ results: [ShardResult]) -> [LoadTally] {
        let all = results.flatMap(\.tallies)
        return all.filter(\.reads) + all.filter(\.slow) + all.filter(\.stalled)
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    static func sleep(until time: Double) {
        let wait = time - now()
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }
}
