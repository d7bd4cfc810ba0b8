import XCTest
@testable import LayoutCore

final class PeerPacingTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    func testAReaderWithAnOpenWindowGetsEveryFrameAtOnce() {
        var pacing = PeerPacing()
        for step in 0..<10 {
            XCTAssertEqual(pacing.frameReady(window: 65536, unacknowledged: 8040, now: UInt64(step) * 50 * ms, publishedAt: 0, nextDue: nil), .send)
        }
        XCTAssertEqual(pacing.largestWindow, 65536)
    }

    func testAReaderWithABacklogIsWaitedForUntilItCatchesUp() {
        var pacing = PeerPacing()
        XCTAssertEqual(pacing.frameReady(window: 4096, unacknowledged: 0, now: 0, publishedAt: 0, nextDue: nil), .send)
        // Its buffer is nearly full: it has almost 4 KB still to read.
        XCTAssertEqual(pacing.frameReady(window: 192, unacknowledged: 0, now: 100 * ms, publishedAt: 0, nextDue: nil), .wait)
        XCTAssertEqual(pacing.frameReady(window: 192, unacknowledged: 0, now: 150 * ms, publishedAt: 0, nextDue: nil), .wait)
        // A quarter of the buffer or less left to read: the frame goes.
        XCTAssertEqual(pacing.frameReady(window: 3072, unacknowledged: 0, now: 180 * ms, publishedAt: 0, nextDue: nil), .send)
        XCTAssertEqual(pacing.frameReady(window: 4096, unacknowledged: 0, now: 400 * ms, publishedAt: 0, nextDue: nil), .send)
    }

    func testNoFrameIsHeldBackLongerThanTheLongestHold() {
        var pacing = PeerPacing()
        XCTAssertEqual(pacing.frameReady(window: 8192, unacknowledged: 0, now: 0, publishedAt: 0, nextDue: nil), .send)
        XCTAssertEqual(pacing.frameReady(window: 100, unacknowledged: 0, now: 10 * ms, publishedAt: 0, nextDue: nil), .wait)
        XCTAssertEqual(pacing.frameReady(window: 100, unacknowledged: 0, now: 10 * ms + PeerPacing.longestHold - 1, publishedAt: 0, nextDue: nil), .wait)
        XCTAssertEqual(pacing.frameReady(window: 100, unacknowledged: 0, now: 10 * ms + PeerPacing.longestHold, publishedAt: 0, nextDue: nil), .send)
        // The next frame's hold starts afresh.
        XCTAssertEqual(pacing.frameReady(window: 100, unacknowledged: 0, now: 500 * ms, publishedAt: 0, nextDue: nil), .wait)
    }

    func testBytesInFlightFillingTheWindowHoldTheFrameBack() {
        var pacing = PeerPacing()
        XCTAssertEqual(pacing.frameReady(window: 1879, unacknowledged: 0, now: 0, publishedAt: 0, nextDue: nil), .send)
        // Everything is sent, but most of a window waits for the reader to make room.
        XCTAssertEqual(pacing.frameReady(window: 1879, unacknowledged: 1700, now: 50 * ms, publishedAt: 0, nextDue: nil), .wait)
        XCTAssertEqual(pacing.frameReady(window: 1879, unacknowledged: 900, now: 60 * ms, publishedAt: 0, nextDue: nil), .send)
    }

    func testAReaderBehindOnItsReadingWaitsForTheNextFrameWhenTheNewestHasAged() {
        var pacing = PeerPacing()
        XCTAssertEqual(pacing.frameReady(window: 4096, unacknowledged: 0, now: 0, publishedAt: 0, nextDue: 50 * ms), .send)
        // A fast reader gets an aged frame at once.
        XCTAssertEqual(pacing.frameReady(window: 4096, unacknowledged: 0, now: 40 * ms, publishedAt: 0,
                                         nextDue: 50 * ms), .send)
        XCTAssertEqual(pacing.frameReady(window: 100, unacknowledged: 0, now: 60 * ms, publishedAt: 50 * ms,
                                         nextDue: 100 * ms), .wait)
        // Caught up at 90 ms: the frame of 50 ms is 40 ms old, the next due in 10.
        XCTAssertEqual(pacing.frameReady(window: 4096, unacknowledged: 0, now: 90 * ms, publishedAt: 50 * ms,
                                         nextDue: 100 * ms), .wait)
        XCTAssertEqual(pacing.frameReady(window: 4096, unacknowledged: 0, now: 101 * ms, publishedAt: 100 * ms,
                                         nextDue: 150 * ms), .send)
        // Still a slow reader within the second, even with its window open: aged frames wait.
        XCTAssertEqual(pacing.frameReady(window: 4096, unacknowledged: 0, now: 190 * ms, publishedAt: 150 * ms,
                                         nextDue: 200 * ms), .wait)
        XCTAssertEqual(pacing.frameReady(window: 4096, unacknowledged: 0, now: 160 * ms, publishedAt: 150 * ms,
                                         nextDue: 200 * ms), .send)
        // A second later it counts as fast again; behind again, it gets a frame with no
        // successor as soon as it has caught up, however old.
        XCTAssertEqual(pacing.frameReady(window: 4096, unacknowledged: 0, now: 1_100 * ms, publishedAt: 1_050 * ms,
                                         nextDue: 1_100 * ms + 1), .send)
        XCTAssertEqual(pacing.frameReady(window: 100, unacknowledged: 0, now: 1_210 * ms, publishedAt: 1_200 * ms,
                                         nextDue: nil), .wait)
        XCTAssertEqual(pacing.frameReady(window: 4096, unacknowledged: 0, now: 1_240 * ms, publishedAt: 1_200 * ms,
                                         nextDue: nil), .send)
    }

    func testAnUnknownWindowNeverHoldsAFrameBack() {
        var pacing = PeerPacing()
        XCTAssertEqual(pacing.frameReady(window: 8192, unacknowledged: 0, now: 0, publishedAt: 0, nextDue: nil), .send)
        XCTAssertEqual(pacing.frameReady(window: nil, unacknowledged: 0, now: 10 * ms, publishedAt: 0, nextDue: nil), .send)
    }
}
