/// What one step did.
public struct StepReport: Equatable, Sendable {
    /// The largest single-cell movement of the step.
    public var maxMove: Double
    /// The sum of all cells' movements (the article's stopping measure, reported only).
    public var totalMove: Double
    /// `maxMove < threshold`, or no cell could move (none, or all pinned).
    public var settled: Bool

    public init(maxMove: Double, totalMove: Double, settled: Bool) {
        self.maxMove = maxMove
        self.totalMove = totalMove
        self.settled = settled
    }
}
