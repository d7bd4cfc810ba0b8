import XCTest
@testable import LayoutCore

/// Client ids' numbers: reserved ahead in blocks, a run starts where the stored reservation
/// says, and numbers never repeat across runs whatever was confirmed.
final class ClientNumberingTests: XCTestCase {
    func testWithoutAStoreNumbersStartAtOne() {
        var numbering = ClientNumbering()
        XCTAssertNil(numbering.initialWrite())
        XCTAssertEqual((1...3).map { _ in numbering.take().number }, [1, 2, 3])
        XCTAssertFalse(numbering.beyondReservation)
    }

    func testABlockIsReservedAtStartAndTheNextAheadOfNeed() {
        var numbering = ClientNumbering(stored: nil, block: 8)
        XCTAssertEqual(numbering.initialWrite(), 9)
        numbering.confirm(9)
        var writes: [Int] = []
        for expected in 1...4 {
            let (number, write) = numbering.take()
            XCTAssertEqual(number, expected)
            if let write { writes.append(write) }
        }
        // Half the block used: the next is asked for once, while numbers go on.
        XCTAssertEqual(writes, [17])
        XCTAssertNil(numbering.take().write)
        numbering.confirm(17)
        XCTAssertFalse(numbering.beyondReservation)
    }

    func testARunStartsAtTheStoredReservation() {
        var numbering = ClientNumbering(stored: 1025, block: 1024)
        XCTAssertEqual(numbering.initialWrite(), 2049)
        numbering.confirm(2049)
        XCTAssertEqual(numbering.take().number, 1025)
    }

    /// Whatever a run confirmed (even nothing past its first block), the next run, starting
    /// from what the store holds, hands out none of its numbers again.
    func testNumbersNeverRepeatAcrossRuns() {
        var stored: Int? = nil
        var handedOut = Set<Int>()
        for run in 0..<20 {
            var numbering = ClientNumbering(stored: stored, block: 4)
            let first = numbering.initialWrite()!
            numbering.confirm(first)
            stored = first
            for index in 0..<(run * 3 % 11) {
                let (number, write) = numbering.take()
                XCTAssertTrue(handedOut.insert(number).inserted, "run \(run) repeated \(number)")
                // Some writes complete, some never do (the process dies first).
                if let write, (run + index) % 3 != 0 {
                    numbering.confirm(write)
                    stored = max(stored ?? 0, write)
                }
            }
            if numbering.beyondReservation { break }  // only when writes fail: said in the log
        }
        XCTAssertGreaterThan(handedOut.count, 20)
    }

    func testAWriteThatNeverCompletesLetsNumbersGoPastTheReservation() {
        var numbering = ClientNumbering(stored: nil, block: 2)
        numbering.confirm(numbering.initialWrite()!)
        XCTAssertEqual(numbering.take().write, 5)  // half used: the next block, never confirmed
        XCTAssertEqual(numbering.take().number, 2)
        XCTAssertFalse(numbering.beyondReservation)
        let (number, write) = numbering.take()
        XCTAssertEqual(number, 3)
        XCTAssertEqual(write, 6)  // asked for again at once
        XCTAssertTrue(numbering.beyondReservation)
        numbering.confirm(write!)
        XCTAssertFalse(numbering.beyondReservation)
    }
}
