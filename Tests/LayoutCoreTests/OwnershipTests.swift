import ForceLayout
import XCTest
@testable import LayoutCore

final class OwnershipTests: XCTestCase {
    private func run(_ client: String, _ first: CellID, _ last: CellID) -> Ownership.Run {
        Ownership.Run(client: client, first: first, last: last)
    }

    func testConsecutiveAddsOfOneClientFormOneRun() {
        var ownership = Ownership()
        ownership.record([1, 2, 3], by: "c1")
        ownership.record([4, 5], by: "c1")
        ownership.record([6], by: "c2")
        ownership.record([7, 8], by: "c1")
        XCTAssertEqual(ownership.runs, [run("c1", 1, 5), run("c2", 6, 6), run("c1", 7, 8)])
    }

    func testCompactNarrowsRunsToLiveCellsAndDropsEmptyOnes() {
        var ownership = Ownership()
        ownership.record([1, 2, 3], by: "c1")
        ownership.record([4, 5], by: "c2")
        ownership.record([6, 7], by: "c3")
        XCTAssertEqual(ownership.compact(to: [2, 3, 6]), [run("c1", 2, 3), run("c3", 6, 6)])
        XCTAssertEqual(ownership.runs, [run("c1", 2, 3), run("c3", 6, 6)], "empty runs are forgotten")
        XCTAssertEqual(ownership.compact(to: []), [])
        XCTAssertTrue(ownership.runs.isEmpty)
    }

    func testRunsOfOneClientMergeOnceNothingLiveSeparatesThem() {
        var ownership = Ownership()
        ownership.record([1, 2], by: "c1")
        ownership.record([3], by: "c2")
        ownership.record([4, 5], by: "c1")
        XCTAssertEqual(ownership.compact(to: [1, 2, 3, 4, 5]), [run("c1", 1, 2), run("c2", 3, 3), run("c1", 4, 5)])
        XCTAssertEqual(ownership.compact(to: [1, 5]), [run("c1", 1, 5)])
    }

    func testCellsWithoutOwnerAreNeverCovered() {
        var ownership = Ownership()
        ownership.record([11, 12], by: "c1")
        // 1…10 were restored from a state file: no owner, and no run may reach them.
        let runs = ownership.compact(to: Array(1...12))
        XCTAssertEqual(runs, [run("c1", 11, 12)])
    }

    func testEveryLiveCellIsCoveredByItsOwnersRunOnly() {
        var random = SeededRandom(seed: 7)
        var ownership = Ownership()
        var owner: [CellID: String] = [:]
        var live: [CellID] = []
        var next = 1
        for _ in 0..<300 {
            if Double.random(in: 0..<1, using: &random) < 0.6 || live.isEmpty {
                let client = "c\(Int(Double.random(in: 0..<1, using: &random) * 3))"
                let count = 1 + Int(Double.random(in: 0..<1, using: &random) * 4)
                let ids = Array(next..<(next + count))
                next += count
                ownership.record(ids, by: client)
                for id in ids { owner[id] = client }
                live += ids
            } else {
                live.remove(at: Int(Double.random(in: 0..<1, using: &random) * Double(live.count)))
            }
            let runs = ownership.compact(to: live)
            for id in live {
                let covering = runs.filter { $0.first <= id && id <= $0.last }
                XCTAssertEqual(covering.map(\.client), [owner[id]!], "id \(id)")
            }
        }
    }
}
