import Foundation

/// The figures of a load run: per-client frame rates, the steps per second each reader's
/// frames show, latency percentiles, throughput, errors, what the server reported about
/// itself before and after, and (from /proc) what the server process and the tool cost.
public struct LoadReport: Sendable {
    public struct ServerSample: Sendable, Equatable {
        public var tick: Int
        public var rssMB: Double
        public var clients: Int
        public var cells: Int
        public var at: Double

        public init(tick: Int, rssMB: Double, clients: Int, cells: Int, at: Double) {
            self.tick = tick
            self.rssMB = rssMB
            self.clients = clients
            self.cells = cells
            self.at = at
        }
    }

    public var seconds: Double
    public var tallies: [LoadTally]
    /// The ages of the frames the clients got, every shard's together.
    public var ages: FrameAges
    public var before: ServerSample?
    public var after: ServerSample?
    public var cost = ProcessCost()
    /// `--rooms`: how many rooms, one reader each (`GET /stats` then speaks of room main only,
    /// so its tick is left out).
    public var rooms: Int?
    /// The protocol the clients spoke (1 or 2) and the threads they were spread over.
    public var wireProtocol: Int?
    public var processes: Int?

    public init(seconds: Double, tallies: [LoadTally], ages: FrameAges = FrameAges(), before: ServerSample?,
                after: ServerSample?, cost: ProcessCost = ProcessCost(), rooms: Int? = nil) {
        self.seconds = seconds
        self.tallies = tallies
        self.ages = ages
        self.before = before
        self.after = after
        self.cost = cost
        self.rooms = rooms
    }

    var readers: [LoadTally] { tallies.filter(\.reads) }

    var serverTicks: Int? {
        guard let before, let after else { return nil }
        return after.tick - before.tick
    }

    public var json: [String: Any] {
        let readers = self.readers
        var result = clientFigures(readers)
        if let rooms { result["rooms"] = rooms }
        if let wireProtocol { result["protocol"] = wireProtocol }
        if let processes { result["processes"] = processes }
        if let slow = SlowReport(tallies: tallies.filter(\.slow), ages: ages, readers: readers, seconds: seconds) {
            result["slow"] = slow.json
        }
        addServerFigures(readers, to: &result)
        result.merge(cost.json) { _, new in new }
        return result
    }

    /// What the clients saw: frames, steps, latencies, bytes, errors and closes.
    private func clientFigures(_ readers: [LoadTally]) -> [String: Any] {
        let stalled = tallies.filter(\.stalled)
        return [
            "clients": readers.count,
            "stalled": stalled.count,
            "seconds": Figures.round(seconds, 1),
            "framesPerSecond": Figures.summary(readers.map { Double($0.frames) / seconds }),
            // A reader that saw fewer than two frames shows no steps: 0.
            "stepsPerSecond": Figures.summary(readers.map { $0.ticks.stepsPerSecond ?? 0 }),
            "longestFrameGapMs": Figures.round(1000 * (readers.map(\.ticks.longestGap).max() ?? 0), 1),
            "latencyMs": ages.readers.json,
            "bytesPerSecond": Int(Double(readers.reduce(0) { $0 + $1.bytes }) / seconds),
            "errors": tallies.reduce(0) { $0 + $1.errors },
            "connectFailures": tallies.filter(\.connectFailed).count,
            "readersClosed": readers.filter { $0.closedWith != nil }.count,
            "stalledClosed": stalled.filter { $0.closedWith != nil }.count,
            "stalledCloseCodes": Array(Set(stalled.compactMap(\.closedWith))).sorted(),
        ]
    }

    /// What the server's stats before and after the run say: its memory, cells and clients,
    /// and (with one room) its step rate and the share of its frames the readers got.
    private func addServerFigures(_ readers: [LoadTally], to result: inout [String: Any]) {
        if let before, let after {
            result["serverRSSMB"] = ["before": before.rssMB, "after": after.rssMB, "growth": Figures.round(after.rssMB - before.rssMB, 1)]
            result["cells"] = after.cells
            result["serverClients"] = after.clients
        }
        if rooms == nil, let ticks = serverTicks, let before, let after, after.at > before.at {
            let rate = Double(ticks) / (after.at - before.at)
            result["serverTicksPerSecond"] = Figures.round(rate, 2)
            // Share of the server's frames each reader got (frames follow ticks one to one
            // while the layout moves).
            let expected = rate * seconds
            if expected > 0 {
                let shares = readers.map { Double($0.frames) / expected }.sorted()
                result["delivered"] = ["min": Figures.round(shares.first ?? 0, 3),
                                       "median": Figures.round(Figures.percentile(shares, 0.5) ?? 0, 3)]
            }
        }
    }

    public var jsonLine: String { Figures.jsonLine(json) }
}
