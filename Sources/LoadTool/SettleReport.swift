/// The figures of a `--settle` run: how many rooms were made and settled, and how long that
/// took (from the start of the run), before their clients left.
public struct SettleReport: Sendable {
    public var cellsPerRoom: Int
    public var seconds: Double
    public var tallies: [LoadTally]
    public var cost = ProcessCost()

    public init(cellsPerRoom: Int, seconds: Double, tallies: [LoadTally], cost: ProcessCost = ProcessCost()) {
        self.cellsPerRoom = cellsPerRoom
        self.seconds = seconds
        self.tallies = tallies
        self.cost = cost
    }

    public var settled: Int { tallies.filter { $0.settledAfter != nil }.count }

    public var json: [String: Any] {
        var result: [String: Any] = [
            "rooms": tallies.count,
            "cellsPerRoom": cellsPerRoom,
            "settled": settled,
            "left": tallies.filter(\.left).count,
            "seconds": Figures.round(seconds, 1),
            "secondsToSettle": Figures.summary(tallies.compactMap(\.settledAfter), places: 1),
            "errors": tallies.reduce(0) { $0 + $1.errors },
            "connectFailures": tallies.filter(\.connectFailed).count,
            // Closed by the server (a refusal, a close frame) rather than left.
            "closedByServer": tallies.filter { !$0.left && $0.closedWith != nil }.count,
            "closeCodes": Array(Set(tallies.filter { !$0.left }.compactMap(\.closedWith))).sorted(),
        ]
        result.merge(cost.json) { _, new in new }
        return result
    }

    public var jsonLine: String { Figures.jsonLine(json) }
}
