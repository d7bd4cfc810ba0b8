/// How long a slow reader (`--slow`) pauses after each read so that it takes in `fraction`
/// of the stream's bandwidth: the stream's bytes per second are its frames' size (a moving
/// average of what it received) times the layout's steps per second: ticks over the frames'
/// own `at` (the server's clock when it made them), not over their arrival, which a slow
/// reader's pace would bend (frames follow steps one to one, so skipped frames still count).
/// Until it has seen two frames it reads freely.
struct SlowPace: Equatable {
    let fraction: Double
    private(set) var frameBytes: Double?
    private var ticks = TickSpan()

    init(fraction: Double) { self.fraction = fraction }

    /// A whole frame of `bytes` with `tick`, made at `madeAt` (ms since 1970, its `at`).
    mutating func frame(bytes: Int, tick: Int?, madeAt: Double?) {
        frameBytes = frameBytes.map { 0.8 * $0 + 0.2 * Double(bytes) } ?? Double(bytes)
        if let tick, let madeAt { ticks.saw(tick: tick, at: madeAt / 1000) }
    }

    /// Bytes per second it may read; nil until known.
    var bytesPerSecond: Double? {
        guard let frameBytes, let steps = ticks.stepsPerSecond, steps > 0 else { return nil }
        return fraction * frameBytes * steps
    }

    /// Seconds to wait after reading `bytes` (0 while the rate is unknown).
    func pause(afterReading bytes: Int) -> Double {
        guard let rate = bytesPerSecond, rate > 0 else { return 0 }
        return Double(bytes) / rate
    }
}
