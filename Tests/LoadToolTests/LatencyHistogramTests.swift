import XCTest
@testable import LoadTool

/// The load tool's percentiles come from HdrHistogram now: they must be those the sorted
/// arrays gave (nearest rank), within its three significant digits.
final class LatencyHistogramTests: XCTestCase {
    func testPercentilesAreTheSortedArraysWithinAThousandth() {
        var random = SystemRandomNumberGenerator()
        let values = (0..<50_000).map { _ in Double.random(in: 0.2...400, using: &random) }
        let sorted = values.sorted()
        let histogram = LatencyHistogram(values)
        XCTAssertEqual(histogram.count, values.count)
        for p in [0.5, 0.9, 0.99, 0.999] {
            let exact = Figures.percentile(sorted, p)!
            XCTAssertEqual(histogram.percentile(p)!, exact, accuracy: exact * 0.001 + 0.001, "p\(p)")
        }
        XCTAssertEqual(histogram.max, sorted.last!, accuracy: sorted.last! * 0.001)
    }

    func testShardsMergeAndEdgesHold() {
        var one = LatencyHistogram([1, 2, 3])
        one.add(LatencyHistogram([100]))
        XCTAssertEqual(one.count, 4)
        XCTAssertEqual(one.percentile(0.5)!, 2, accuracy: 0.01)
        XCTAssertEqual(one.max, 100, accuracy: 0.1)
        XCTAssertNil(LatencyHistogram().percentile(0.5))
        XCTAssertEqual(LatencyHistogram().max, 0)
        XCTAssertEqual(LatencyHistogram([-3]).max, 0, "a clock a little behind the server's: zero")
        XCTAssertEqual(LatencyHistogram([1e12]).max, 3_600_000, accuracy: 3_600, "past an hour: an hour")
    }
}
