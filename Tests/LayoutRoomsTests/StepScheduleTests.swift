import XCTest
@testable import LayoutRooms

final class StepScheduleTests: XCTestCase {
    /// A frame turn that steps and comes back (`again`), as a moving room's does.
    private func finishMoving(_ schedule: inout StepSchedule<String>, _ turn: StepSchedule<String>.Turn, now: Double,
                              interval: Double) {
        schedule.finished(turn, now: now, interval: interval, again: true, stepping: true, frameTurn: true)
    }

    func testRoomsHaveFramesAtTheirOwnRates() {
        var schedule = StepSchedule<String>()
        schedule.wake("fast", at: 0)
        schedule.wake("slow", at: 0)
        var turns: [String: Int] = [:]
        var now = 0.0
        while now < 1.0 {
            while let turn = schedule.take(now: now) {
                XCTAssertFalse(turn.isEarly)
                turns[turn.room, default: 0] += 1
                finishMoving(&schedule, turn, now: now, interval: turn.room == "fast" ? 0.05 : 0.1)
            }
            now += 0.001
        }
        XCTAssertEqual(turns["fast"], 20)
        XCTAssertEqual(turns["slow"], 10)
    }

    func testARestingRoomCostsNothingUntilWoken() {
        var schedule = StepSchedule<String>()
        schedule.wake("a", at: 0)
        let turn = schedule.take(now: 0)!
        schedule.finished(turn, now: 0.01, interval: 0.05, again: false, stepping: false, frameTurn: true)
        XCTAssertNil(schedule.nextDue(), "settled: nothing to wake the pool for")
        XCTAssertNil(schedule.take(now: 100))
        schedule.wake("a", at: 100)
        XCTAssertEqual(schedule.nextDue(), 100)
        XCTAssertEqual(schedule.take(now: 100)?.isEarly, false, "a room at rest gets a frame turn")
    }

    func testARoomIsHandedToOneThreadAtATime() {
        var schedule = StepSchedule<String>()
        schedule.wake("a", at: 0)
        let taken = schedule.take(now: 0)!
        schedule.wake("a", at: 0)  // a command arrives during its turn
        XCTAssertNil(schedule.take(now: 1), "its turn runs: not handed out twice")
        finishMoving(&schedule, taken, now: 0.02, interval: 0.05)
        XCTAssertEqual(schedule.nextDue(), 0.05)
    }

    func testAnOverrunIsFollowedAtOnceNotByAFullInterval() {
        var schedule = StepSchedule<String>()
        schedule.wake("a", at: 0)
        let turn = schedule.take(now: 0)!
        finishMoving(&schedule, turn, now: 0.3, interval: 0.05)
        XCTAssertEqual(schedule.nextDue(), 0.3)
    }

    func testACommandGetsAMovingRoomAnEarlyTurnAndItsFrameTurnStays() {
        var schedule = StepSchedule<String>()
        schedule.wake("a", at: 0)
        finishMoving(&schedule, schedule.take(now: 0)!, now: 0.03, interval: 0.05)  // frame turn due at 0.05
        schedule.wake("a", at: 0.035)  // a command between two frame turns
        let early = schedule.take(now: 0.035)!
        XCTAssertEqual(early.frameDue, 0.05)
        XCTAssertTrue(early.isEarly)
        schedule.finished(early, now: 0.036, interval: 0.05, again: true, stepping: true, frameTurn: false)
        XCTAssertEqual(schedule.nextDue(), 0.05, "the frame turn is where it was")
        XCTAssertNil(schedule.take(now: 0.04))
        let frame = schedule.take(now: 0.05)!
        XCTAssertFalse(frame.isEarly)
        XCTAssertEqual(frame.due, 0.05)
    }

    func testEarlyTurnsOneAfterAnotherKeepTheFrameTurn() {
        var schedule = StepSchedule<String>()
        schedule.wake("a", at: 0)
        finishMoving(&schedule, schedule.take(now: 0)!, now: 0.01, interval: 0.05)
        for now in [0.02, 0.03, 0.04] {
            schedule.wake("a", at: now)
            let early = schedule.take(now: now)!
            XCTAssertEqual(early.frameDue, 0.05)
            schedule.finished(early, now: now + 0.001, interval: 0.05, again: true, stepping: true, frameTurn: false)
        }
        XCTAssertEqual(schedule.take(now: 0.05)?.isEarly, false)
    }

    func testAnEarlyTurnThatPublishedAFrameStartsTheFramesAnew() {
        // A room scheduled only for a save: the command sets it moving; its turn is a frame turn.
        var schedule = StepSchedule<String>()
        schedule.wake("a", at: 0)
        schedule.finished(schedule.take(now: 0)!, now: 0.01, interval: 0.05, again: true, stepping: false, frameTurn: true)
        schedule.wake("a", at: 0.02)
        let early = schedule.take(now: 0.02)!
        XCTAssertTrue(early.isEarly)
        schedule.finished(early, now: 0.03, interval: 0.05, again: true, stepping: true, frameTurn: true)
        XCTAssertEqual(schedule.nextDue()!, 0.07, accuracy: 1e-12)
    }

    func testAWakeLaterThanTheFrameTurnLeavesIt() {
        var schedule = StepSchedule<String>()
        schedule.wake("a", at: 0)
        finishMoving(&schedule, schedule.take(now: 0)!, now: 0.01, interval: 0.05)
        schedule.wake("a", at: 0.06)
        XCTAssertEqual(schedule.take(now: 0.06)?.isEarly, false)
    }

    func testMovingRoomsAreThoseWhoseLayoutSteps() {
        var schedule = StepSchedule<String>()
        for room in ["a", "b", "c"] { schedule.wake(room, at: 0) }
        XCTAssertEqual(schedule.movingCount, 1, "none known to step yet: the one asking")
        let a = schedule.take(now: 0)!, b = schedule.take(now: 0)!, c = schedule.take(now: 0)!
        finishMoving(&schedule, a, now: 0.01, interval: 0.05)
        finishMoving(&schedule, b, now: 0.01, interval: 0.05)
        schedule.finished(c, now: 0.01, interval: 0.05, again: true, stepping: false, frameTurn: true)  // a save to come
        XCTAssertEqual(schedule.movingCount, 2)
        let again = schedule.take(now: 0.05)!
        XCTAssertEqual(schedule.movingCount, 2, "a room in its turn still counts")
        schedule.finished(again, now: 0.06, interval: 0.05, again: false, stepping: false, frameTurn: true)
        XCTAssertEqual(schedule.movingCount, 1)
        schedule.rest(again.room == "a" ? "b" : "a")
        XCTAssertEqual(schedule.movingCount, 1)
    }

    func testWakingEarlierMovesTheTurnUpAndRestingDropsIt() {
        var schedule = StepSchedule<String>()
        schedule.wake("a", at: 10)
        schedule.wake("a", at: 2)
        schedule.wake("a", at: 5)
        XCTAssertEqual(schedule.nextDue(), 2)
        XCTAssertEqual(schedule.scheduledCount, 1)
        schedule.rest("a")
        XCTAssertNil(schedule.nextDue())
        XCTAssertFalse(schedule.isScheduled("a"))
    }

    func testManyRoomsComeOutInDueOrder() {
        var schedule = StepSchedule<Int>()
        var rng = SystemRandomNumberGenerator()
        var dues: [Int: Double] = [:]
        for room in 0..<500 {
            let due = Double.random(in: 0..<10, using: &rng)
            dues[room] = due
            schedule.wake(room, at: due)
        }
        var last = -1.0
        var seen = 0
        while let turn = schedule.take(now: 10) {
            XCTAssertGreaterThanOrEqual(turn.due, last)
            XCTAssertEqual(turn.due, dues[turn.room])
            last = turn.due
            seen += 1
        }
        XCTAssertEqual(seen, 500)
    }
}
