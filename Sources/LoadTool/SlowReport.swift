/// The figures of the slow readers (`--slow`): how many frames they got, how old those frames
/// were when they had arrived whole (arrival minus the frame's `at`), and what share of a
/// reader's bandwidth they took in (the median reader's bytes per second).
struct SlowReport {
    var tallies: [LoadTally]
    var ages: FrameAges
    var readerBytesPerSecond: Double
    var seconds: Double

    init?(tallies: [LoadTally], ages: FrameAges, readers: [LoadTally], seconds: Double) {
        guard !tallies.isEmpty, seconds > 0 else { return nil }
        self.tallies = tallies
        self.ages = ages
        self.seconds = seconds
        let rates = readers.map { Double($0.bytes) / seconds }.sorted()
        readerBytesPerSecond = Figures.percentile(rates, 0.5) ?? 0
    }

    var json: [String: Any] {
        let rates = tallies.map { Double($0.bytes) / seconds }
        var result: [String: Any] = [
            "clients": tallies.count,
            "framesPerSecond": Figures.summary(tallies.map { Double($0.frames) / seconds }),
            "bytesPerSecond": Figures.summary(rates, places: 0),
            "frameAgeMs": ages.slow.json,
            // The same when the frame's first bytes arrived: what the server chose, before the
            // reader's own pace spent the rest.
            "frameAgeAtStartMs": [
                "p50": Figures.round(ages.slowStarts.percentile(0.5) ?? 0, 1),
                "p99": Figures.round(ages.slowStarts.percentile(0.99) ?? 0, 1),
            ],
            "closed": tallies.filter { $0.closedWith != nil }.count,
        ]
        if readerBytesPerSecond > 0 {
            let median = Figures.percentile(rates.sorted(), 0.5) ?? 0
            result["shareOfReaderBandwidth"] = Figures.round(median / readerBytesPerSecond, 3)
        }
        return result
    }
}
