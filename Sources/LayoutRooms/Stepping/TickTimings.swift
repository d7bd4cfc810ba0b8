/// Step durations over a sliding window: the running mean and the 99th percentile.
struct TickTimings {
    private var samples: [Double] = []
    private var next = 0
    let capacity: Int

    init(capacity: Int = 200) { self.capacity = capacity }

    mutating func record(_ milliseconds: Double) {
        if samples.count < capacity {
            samples.append(milliseconds)
        } else {
            samples[next] = milliseconds
            next = (next + 1) % capacity
        }
    }

    var mean: Double { samples.isEmpty ? 0 : samples.reduce(0, +) / Double(samples.count) }

    var p99: Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let rank = Int((Double(sorted.count) * 0.99).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
