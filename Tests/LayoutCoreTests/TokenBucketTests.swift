import XCTest
@testable import LayoutCore

final class TokenBucketTests: XCTestCase {
    func testBurstThenSustainedRate() {
        var bucket = TokenBucket(rate: 60, burst: 120, now: 0)
        XCTAssertEqual((0..<200).filter { _ in bucket.take(now: 0) }.count, 120)
        XCTAssertFalse(bucket.take(now: 0))
        // One second later, 60 more.
        XCTAssertEqual((0..<200).filter { _ in bucket.take(now: 1) }.count, 60)
        // Never more than the burst, however long the pause.
        XCTAssertEqual((0..<500).filter { _ in bucket.take(now: 1000) }.count, 120)
    }

    func testDragsAtThirtyPerSecondAreNeverLimited() {
        var bucket = TokenBucket(rate: 60, burst: 120, now: 0)
        for step in 0..<3000 { XCTAssertTrue(bucket.take(now: Double(step) / 30)) }
    }
}
