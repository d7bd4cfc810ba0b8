/// What one step did.
public struct StepReport: Equatable, Sendable {
    /// The largest single-cell movement of the step.
    public var maxMove: Double
    /// The sum of all cells' movements (the article's stopping measure, reported only).
    public var totalMove: Double
    /// `maxRestStep < threshold`, or no cell could move (none, or all pinned).
    public var settled: Bool
    /// The largest step by which rest is judged (see `Rest`): a cell's step, or the step it
    /// would take undamped while its damping is stale (learned under forces since changed);
    /// with `collide`, its movement plus what stale damping withheld. Equals `maxMove`
    /// unless some cell's damping is stale.
    public var maxRestStep: Double

    public init(maxMove: Double, totalMove: Double, settled: Bool, maxRestStep: Double = 0) {
        self.maxMove = maxMove
        self.totalMove = totalMove
        self.settled = settled
        self.maxRestStep = maxRestStep
    }
}
