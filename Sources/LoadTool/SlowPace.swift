/// How long a slow reader (`--slow`) pauses after each read so that it takes in `fraction`
/// of the stream's bandwidth: the stream's bytes per second are its frames' size (a moving
/// average of what it received) times the room's frame rate (`framesPerSecond`, its
/// `tickRate`: a frame carries the newest of several steps, so ticks do not count frames).
/// Without a known frame rate, the layout's steps per second over its last frames stand for
/// it (the server's steps and frames were one to one before issue 23), counted by the frames'
/// own `at` (the server's clock when it made them), not by their arrival, which a slow
/// reader's pace would bend. Until it knows a rate it reads freely, and it never pauses longer
/// than `longestPause`, so an estimate made while the layout was still idle passes.
struct SlowPace: Equatable {
    let fraction: Double
    /// The room's frames per second, when known.
    let framesPerSecond: Double?
    private(set) var frameBytes: Double?
    /// (tick, at in seconds) of the last frames, oldest first.
    private var marks: [TickSpan.Mark] = []
    static let remembered = 8
    static let longestPause = 1.0

    init(fraction: Double, framesPerSecond: Double? = nil) {
        self.fraction = fraction
        self.framesPerSecond = framesPerSecond.flatMap { $0 > 0 ? $0 : nil }
    }

    /// A whole frame of `bytes` with `tick`, made at `madeAt` (ms since 1970, its `at`).
    mutating func frame(bytes: Int, tick: Int?, madeAt: Double?) {
        frameBytes = frameBytes.map { 0.8 * $0 + 0.2 * Double(bytes) } ?? Double(bytes)
        guard let tick, let madeAt else { return }
        marks.append(TickSpan.Mark(tick: tick, at: madeAt / 1000))
        if marks.count > Self.remembered { marks.removeFirst() }
    }

    /// Steps per second over the remembered frames; nil before two of them.
    var stepsPerSecond: Double? {
        guard let first = marks.first, let last = marks.last, last.at > first.at else { return nil }
        return Double(last.tick - first.tick) / (last.at - first.at)
    }

    /// Bytes per second it may read; nil until known.
    var bytesPerSecond: Double? {
        guard let frameBytes, let rate = framesPerSecond ?? stepsPerSecond, rate > 0 else { return nil }
        return fraction * frameBytes * rate
    }

    /// Seconds to wait after reading `bytes` (0 while the rate is unknown).
    func pause(afterReading bytes: Int) -> Double {
        guard let rate = bytesPerSecond, rate > 0 else { return 0 }
        return min(Double(bytes) / rate, Self.longestPause)
    }
}
