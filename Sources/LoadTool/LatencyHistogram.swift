import Histogram

/// Milliseconds (a frame's age when it arrived), kept in an HdrHistogram: microseconds from 1
/// to an hour at three significant digits (each value within 0.1% of what was recorded), in
/// about 350 KB however many frames come: one a shard and kind of client (`FrameAges`), never
/// one a client (a thousand readers' histograms, made afresh when the window opens, cost
/// hundreds of MB and stalled the readers). Percentiles are HdrHistogram's, of the same
/// nearest rank `Figures.percentile` took of a sorted array.
public struct LatencyHistogram: Sendable {
    private var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000,
                                              numberOfSignificantValueDigits: .three)

    public init() {}

    /// One holding each of `milliseconds`.
    public init(_ milliseconds: some Sequence<Double>) {
        for value in milliseconds { record(value) }
    }

    /// Records `milliseconds` (one below zero, a clock a little behind the server's, as zero;
    /// past an hour, as an hour).
    public mutating func record(_ milliseconds: Double) {
        let microseconds = (Swift.max(0, milliseconds) * 1000).rounded()
        _ = histogram.record(UInt64(min(microseconds, Double(histogram.highestTrackableValue))))
    }

    public mutating func add(_ other: LatencyHistogram) {
        histogram.add(other.histogram)
    }

    public var count: Int { Int(histogram.totalCount) }

    /// The `p`-quantile (0…1) in ms; nil when empty.
    public func percentile(_ p: Double) -> Double? {
        count == 0 ? nil : Double(histogram.valueAtPercentile(p * 100)) / 1000
    }

    public var max: Double { count == 0 ? 0 : Double(histogram.max) / 1000 }

    /// {p50, p99, max, samples}, in ms to 0.1, as the reports print them.
    var json: [String: Any] {
        ["p50": Figures.round(percentile(0.5) ?? 0, 1), "p99": Figures.round(percentile(0.99) ?? 0, 1),
         "max": Figures.round(max, 1), "samples": count]
    }

}
