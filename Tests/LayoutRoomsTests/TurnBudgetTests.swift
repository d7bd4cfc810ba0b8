import XCTest
@testable import LayoutRooms

final class TurnBudgetTests: XCTestCase {
    func testOneRoomTakesThreeQuartersOfItsFrame() {
        let budget = TurnBudget(frameInterval: 0.05, threads: 1, movingRooms: 1)
        XCTAssertEqual(budget.seconds, 0.0375, accuracy: 1e-12, "a room has one thread at most, and leaves a quarter")
        XCTAssertFalse(budget.spare)
    }

    /// A spare thread: the whole frame, and a step may start while the budget is not used up.
    func testWithASpareThreadATurnTakesItsWholeFrameAndMayFinishPastIt() {
        let budget = TurnBudget(frameInterval: 0.05, threads: 2, movingRooms: 1)
        XCTAssertTrue(budget.spare)
        XCTAssertEqual(budget.seconds, 0.05, accuracy: 1e-12)
        // Steps of 36 ms (100k cells), 4 ms to publish: two a turn.
        XCTAssertTrue(budget.allowsStep(after: 1, elapsed: 0.036, lastStep: 0.036, publishing: 0.004))
        XCTAssertFalse(budget.allowsStep(after: 2, elapsed: 0.072, lastStep: 0.036, publishing: 0.004))
        XCTAssertFalse(TurnBudget(frameInterval: 0.05, threads: 2, movingRooms: 2).spare, "no thread spare")
    }

    func testRoomsShareThePoolsThreads() {
        XCTAssertEqual(TurnBudget(frameInterval: 0.05, threads: 2, movingRooms: 2).seconds, 0.0375, accuracy: 1e-12)
        XCTAssertEqual(TurnBudget(frameInterval: 0.05, threads: 2, movingRooms: 4).seconds, 0.01875, accuracy: 1e-12)
        XCTAssertEqual(TurnBudget(frameInterval: 0.1, threads: 2, movingRooms: 200).seconds, 0.00075, accuracy: 1e-12)
        // Whatever the frame rates, the rooms' turns together take `duty` of the pool: 200
        // rooms of 10 frames/s on 2 threads, 0.75 ms each, are 1.5 thread-seconds a second.
        XCTAssertEqual(200 * 10 * 0.00075, 2 * TurnBudget.duty, accuracy: 1e-9)
    }

    func testNonsenseCountsStillGiveABudget() {
        XCTAssertEqual(TurnBudget(frameInterval: 0.05, threads: 0, movingRooms: 0).seconds, 0.0375, accuracy: 1e-12)
        XCTAssertEqual(TurnBudget(frameInterval: 0.05, threads: 4, movingRooms: 0).seconds, 0.05, accuracy: 1e-12)
        XCTAssertEqual(TurnBudget(frameInterval: -1, threads: 2, movingRooms: 1).seconds, 0)
    }

    func testATurnTakesAtLeastOneStep() {
        let none = TurnBudget(frameInterval: 0.05, threads: 1, movingRooms: 1000)
        XCTAssertTrue(none.allowsStep(after: 0, elapsed: 1, lastStep: 1, publishing: 1))
        XCTAssertFalse(none.allowsStep(after: 1, elapsed: 0.0001, lastStep: 0.0001, publishing: 0))
    }

    func testAnotherStepOnlyWhenItAndThePublishingFit() {
        let budget = TurnBudget(frameInterval: 0.05, threads: 1, movingRooms: 1)  // 37.5 ms
        XCTAssertTrue(budget.allowsStep(after: 3, elapsed: 0.030, lastStep: 0.004, publishing: 0.003))
        XCTAssertFalse(budget.allowsStep(after: 3, elapsed: 0.030, lastStep: 0.004, publishing: 0.004))
        XCTAssertFalse(budget.allowsStep(after: 1, elapsed: 0.010, lastStep: 0.030, publishing: 0))
    }

    func testStepsPerTurnFollowFromTheBudget() {
        // 1 ms steps, 2 ms to publish, one room on one thread at 20 frames/s: 35 steps fit in 37.5 ms.
        let budget = TurnBudget(frameInterval: 0.05, threads: 1, movingRooms: 1)
        var steps = 0, elapsed = 0.0
        repeat {
            steps += 1
            elapsed += 0.001
        } while budget.allowsStep(after: steps, elapsed: elapsed, lastStep: 0.001, publishing: 0.002)
        XCTAssertEqual(steps, 35)
    }
}

final class StepRateTests: XCTestCase {
    func testStepsPerSecondOverTheLastSecond() {
        var rate = StepRate(window: 1)
        XCTAssertEqual(rate.perSecond, 0)
        rate.record(tick: 0, at: 10)
        XCTAssertEqual(rate.perSecond, 0, "one mark: no rate yet")
        for frame in 1...40 { rate.record(tick: frame * 30, at: 10 + Double(frame) * 0.05) }  // 600 steps/s
        XCTAssertEqual(rate.perSecond, 600, accuracy: 1e-6)
        for frame in 41...80 { rate.record(tick: 1200 + (frame - 40) * 5, at: 10 + Double(frame) * 0.05) }  // 100/s
        XCTAssertEqual(rate.perSecond, 100, accuracy: 1e-6, "the old marks are out of the window")
    }

    func testAResetForgetsTheMarks() {
        var rate = StepRate()
        rate.record(tick: 0, at: 0)
        rate.record(tick: 100, at: 0.5)
        rate.reset()
        XCTAssertEqual(rate.perSecond, 0)
        rate.record(tick: 100, at: 5)
        XCTAssertEqual(rate.perSecond, 0)
    }
}
