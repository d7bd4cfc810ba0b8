/// Steps per second over the last second or so: the `stats` figure `stepsPerSecond`, now that
/// a frame carries the newest of several steps. Pure: fed the tick at each frame turn with
/// the time, it keeps the marks of the last `window` seconds.
struct StepRate: Sendable {
    private struct Mark: Sendable {
        let at: Double
        let tick: Int
    }

    let window: Double
    private var marks: [Mark] = []

    init(window: Double = 1) { self.window = window }

    /// The layout was at `tick` at `at` seconds (any clock, always the same one).
    mutating func record(tick: Int, at: Double) {
        marks.append(Mark(at: at, tick: tick))
        // Keep one mark at or before the window's start, so the span covers the whole window.
        while marks.count > 2, marks[1].at <= at - window { marks.removeFirst() }
    }

    /// The layout stopped stepping: the rate starts again from its next step.
    mutating func reset() { marks.removeAll() }

    /// Steps per second between the oldest kept mark and the newest (0 before two marks).
    var perSecond: Double {
        guard let first = marks.first, let last = marks.last, last.at > first.at else { return 0 }
        return Double(last.tick - first.tick) / (last.at - first.at)
    }
}
