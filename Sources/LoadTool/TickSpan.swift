/// The layout ticks one reader saw in the measured window: the tick and arrival time of its
/// first and last frame, and the longest wait between two frames. Steps per second follow
/// from them whether or not the reader got every frame (a reader that falls behind is sent
/// the newest frame only, so ticks jump but still count the steps).
public struct TickSpan: Equatable, Sendable {
    public struct Mark: Equatable, Sendable {
        public var tick: Int
        /// Seconds (any clock, the same for every mark).
        public var at: Double
    }

    public private(set) var first: Mark?
    public private(set) var last: Mark?
    /// Longest time between two frames, in seconds (0 until there are two).
    public private(set) var longestGap = 0.0

    public init() {}

    public mutating func saw(tick: Int, at: Double) {
        let mark = Mark(tick: tick, at: at)
        if first == nil { first = mark }
        if let last { longestGap = max(longestGap, at - last.at) }
        last = mark
    }

    /// Steps between the first and the last frame over the time between them; nil before two
    /// frames arrived at different times.
    public var stepsPerSecond: Double? {
        guard let first, let last, last.at > first.at else { return nil }
        return Double(last.tick - first.tick) / (last.at - first.at)
    }
}
