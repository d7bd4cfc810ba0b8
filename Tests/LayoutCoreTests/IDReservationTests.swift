import XCTest
@testable import LayoutCore

final class IDReservationTests: XCTestCase {
    func testRestartResumesAtTheLargerOfNextIDAndReservation() {
        XCTAssertEqual(IDReservation(nextID: 40, reservation: 1025).firstID, 1025)  // killed: skip the rest of the block
        XCTAssertEqual(IDReservation(nextID: 40, reservation: 40).firstID, 40)      // version 1 file, or a clean stop
        XCTAssertEqual(IDReservation(nextID: 40, reservation: 7).firstID, 40)       // never below the saved nextID
        XCTAssertEqual(IDReservation(nextID: 1, reservation: 1).firstID, 1)         // no file yet
        let restored = IDReservation(nextID: 40, reservation: 1025)
        XCTAssertEqual(restored.durable, 1025)
        XCTAssertEqual(restored.requested, 1025)
    }

    func testStartAsksForTheFirstBlockAtOnce() {
        var ids = IDReservation(nextID: 1, reservation: 1, block: 100)
        XCTAssertEqual(ids.ahead(nextID: 1), 101)
        XCTAssertEqual(ids.durable, 1)
        XCTAssertEqual(ids.requested, 101)
        XCTAssertNil(ids.ahead(nextID: 1), "one write under way at a time")
    }

    func testAddsBelowTheDurableReservationProceedAndAskForTheNextBlockWhenHalfIsUsed() {
        var ids = IDReservation(nextID: 1, reservation: 1, block: 100)
        _ = ids.ahead(nextID: 1)
        ids.confirm(durable: 101)
        XCTAssertEqual(ids.admit(nextID: 1, count: 10), .proceed(extendTo: nil))   // 90 left
        XCTAssertEqual(ids.admit(nextID: 11, count: 39), .proceed(extendTo: nil))  // 51 left
        XCTAssertEqual(ids.admit(nextID: 50, count: 1), .proceed(extendTo: 201))   // 50 left: half used
        XCTAssertEqual(ids.admit(nextID: 51, count: 30), .proceed(extendTo: nil), "that block is still being written")
        ids.confirm(durable: 201)
        XCTAssertEqual(ids.durable, 201)
        XCTAssertEqual(ids.admit(nextID: 81, count: 20), .proceed(extendTo: nil))  // 100 left
        XCTAssertEqual(ids.admit(nextID: 101, count: 50), .proceed(extendTo: 301)) // 50 left
    }

    func testAnAddUpToTheDurableReservationNeedsNoWait() {
        var ids = IDReservation(nextID: 1, reservation: 101, block: 100)
        XCTAssertEqual(ids.admit(nextID: 101, count: 0), .proceed(extendTo: 201))
        ids.confirm(durable: 201)
        XCTAssertEqual(ids.admit(nextID: 101, count: 100), .proceed(extendTo: 301), "the last id is 200, below 201")
    }

    func testAnAddCrossingTheDurableReservationWaitsForADurableWrite() {
        var ids = IDReservation(nextID: 1, reservation: 101, block: 100)
        XCTAssertEqual(ids.admit(nextID: 101, count: 1), .wait(writing: 202))
        // Until that write completes, the add still waits (an unconfirmed write is not enough).
        XCTAssertEqual(ids.admit(nextID: 101, count: 1), .wait(writing: 202))
        ids.confirm(durable: 202)
        XCTAssertEqual(ids.admit(nextID: 101, count: 1), .proceed(extendTo: nil))
    }

    func testAnAddCrossingAnExtensionStillBeingWrittenWaits() {
        var ids = IDReservation(nextID: 1, reservation: 1, block: 100)
        XCTAssertEqual(ids.ahead(nextID: 1), 101)
        XCTAssertEqual(ids.admit(nextID: 1, count: 1), .wait(writing: 102), "the first block is not on disk yet")
        ids.confirm(durable: 101)  // the older write completes first: still short of this add
        XCTAssertEqual(ids.admit(nextID: 1, count: 101), .wait(writing: 203))
        ids.confirm(durable: 203)
        XCTAssertEqual(ids.admit(nextID: 1, count: 101), .proceed(extendTo: nil))
    }

    func testAnAddLargerThanABlockReservesItsOwnSize() {
        var ids = IDReservation(nextID: 1, reservation: 1, block: 100)
        XCTAssertEqual(ids.admit(nextID: 1, count: 250), .wait(writing: 501), "the add, and as much again ahead")
        ids.confirm(durable: 501)
        XCTAssertEqual(ids.admit(nextID: 1, count: 250), .proceed(extendTo: nil))
        XCTAssertEqual(ids.admit(nextID: 251, count: 250), .proceed(extendTo: 751))
    }

    func testAFailedWriteKeepsTheAddWaitingAndLowersNothing() {
        var ids = IDReservation(nextID: 1, reservation: 101, block: 100)
        XCTAssertEqual(ids.admit(nextID: 101, count: 5), .wait(writing: 206))
        ids.confirm(durable: 0)  // the write failed: the saver still reports nothing newer
        XCTAssertEqual(ids.durable, 101)
        XCTAssertEqual(ids.admit(nextID: 101, count: 5), .wait(writing: 206), "asks for the same reservation again")
        ids.confirm(durable: 50)
        XCTAssertEqual(ids.durable, 101, "an older reservation never lowers the durable one")
    }

    func testAReservationIsNeverBelowAnyIdHandedOut() {
        // Every id handed out lies below the durable reservation at the time, whatever the
        // sizes of the adds and whether writes complete in time (here two adds in three).
        _ = handOut(block: 64, largestAdd: 200)  // adds larger than a block: they wait more often
        _ = handOut(block: 1024, largestAdd: 1000)
        // Adds of up to 100 ids: only the first waits, the one before any write completed.
        XCTAssertEqual(handOut(block: 1024, largestAdd: 100), 1)
    }

    /// 5000 adds of 1 to `largestAdd` ids, with the writes they ask for completing in order
    /// before two adds in three; returns how many adds waited.
    private func handOut(block: Int, largestAdd: Int, file: StaticString = #filePath, line: UInt = #line) -> Int {
        var ids = IDReservation(nextID: 1, reservation: 1, block: block)
        var nextID = ids.firstID
        var inFlight: [Int] = []
        var waits = 0
        if let first = ids.ahead(nextID: nextID) { inFlight.append(first) }
        for step in 0..<5000 {
            if !inFlight.isEmpty, step % 3 != 0 { ids.confirm(durable: inFlight.removeFirst()) }
            let count = step * 37 % largestAdd + 1
            var admission = ids.admit(nextID: nextID, count: count)
            if case .wait(let reservation) = admission {
                waits += 1
                for written in inFlight + [reservation] { ids.confirm(durable: written) }
                inFlight = []
                admission = ids.admit(nextID: nextID, count: count)
            }
            guard case .proceed(let extendTo) = admission else {
                XCTFail("still waiting after a durable write", file: file, line: line)
                return waits
            }
            XCTAssertLessThanOrEqual(nextID + count, ids.durable, file: file, line: line)
            if let extendTo { inFlight.append(extendTo) }
            nextID += count
        }
        return waits
    }

    func testACleanStopWritesTheExactNextID() {
        XCTAssertEqual(IDReservation.closing(nextID: 77), 77)
    }
}
