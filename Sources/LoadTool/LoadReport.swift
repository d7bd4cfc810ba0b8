import Foundation

/// The figures of a load run: per-client frame rates, latency percentiles, throughput,
/// errors, and what the server reported about itself before and after.
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
    public var before: ServerSample?
    public var after: ServerSample?

    public init(seconds: Double, tallies: [LoadTally], before: ServerSample?, after: ServerSample?) {
        self.seconds = seconds
        self.tallies = tallies
        self.before = before
        self.after = after
    }

    var readers: [LoadTally] { tallies.filter { !$0.stalled } }

    var serverTicks: Int? {
        guard let before, let after else { return nil }
        return after.tick - before.tick
    }

    /// The `p`-quantile (0…1) by the nearest-rank method; nil when empty.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    public var json: [String: Any] {
        let readers = self.readers
        let rates = readers.map { Double($0.frames) / seconds }.sorted()
        let latencies = readers.flatMap(\.latenciesMs).sorted()
        let stalled = tallies.filter(\.stalled)
        var result: [String: Any] = [
            "clients": readers.count,
            "stalled": stalled.count,
            "seconds": round(seconds, 1),
            "framesPerSecond": [
                "min": round(rates.first ?? 0, 2), "median": round(Self.percentile(rates, 0.5) ?? 0, 2),
                "max": round(rates.last ?? 0, 2),
            ],
            "latencyMs": [
                "p50": round(Self.percentile(latencies, 0.5) ?? 0, 1), "p99": round(Self.percentile(latencies, 0.99) ?? 0, 1),
                "max": round(latencies.last ?? 0, 1), "samples": latencies.count,
            ],
            "bytesPerSecond": Int(Double(readers.reduce(0) { $0 + $1.bytes }) / seconds),
            "errors": tallies.reduce(0) { $0 + $1.errors },
            "connectFailures": tallies.filter(\.connectFailed).count,
            "readersClosed": readers.filter { $0.closedWith != nil }.count,
            "stalledClosed": stalled.filter { $0.closedWith != nil }.count,
            "stalledCloseCodes": Array(Set(stalled.compactMap(\.closedWith))).sorted(),
        ]
        if let ticks = serverTicks, let before, let after, after.at > before.at {
            let rate = Double(ticks) / (after.at - before.at)
            result["serverTicksPerSecond"] = round(rate, 2)
            // Share of the server's frames each reader got (frames follow ticks one to one
            // while the layout moves).
            let expected = rate * seconds
            if expected > 0 {
                let shares = readers.map { Double($0.frames) / expected }.sorted()
                result["delivered"] = ["min": round(shares.first ?? 0, 3), "median": round(Self.percentile(shares, 0.5) ?? 0, 3)]
            }
            result["serverRSSMB"] = ["before": before.rssMB, "after": after.rssMB, "growth": round(after.rssMB - before.rssMB, 1)]
            result["cells"] = after.cells
            result["serverClients"] = after.clients
        }
        return result
    }

    public var jsonLine: String {
        let data = (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private func round(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
