@testable import LayoutServer
import XCTest

final class StepScheduleTests: XCTestCase {
    func testRoomsStepAtTheirOwnRates() {
        var schedule = StepSchedule<String>()
        schedule.wake("fast", at: 0)
        schedule.wake("slow", at: 0)
        var steps: [String: Int] = [:]
        var now = 0.0
        while now < 1.0 {
            while let (room, due) = schedule.take(now: now) {
                steps[room, default: 0] += 1
                schedule.finished(room, due: due, now: now, interval: room == "fast" ? 0.05 : 0.1, moving: true)
            }
            now += 0.001
        }
        XCTAssertEqual(steps["fast"], 20)
        XCTAssertEqual(steps["slow"], 10)
    }

    func testARestingRoomCostsNothingUntilWoken() {
        var schedule = StepSchedule<String>()
        schedule.wake("a", at: 0)
        let (room, due) = schedule.take(now: 0)!
        schedule.finished(room, due: due, now: 0.01, interval: 0.05, moving: false)
        XCTAssertNil(schedule.nextDue(), "settled: nothing to wake the pool for")
        XCTAssertNil(schedule.take(now: 100))
        schedule.wake("a", at: 100)
        XCTAssertEqual(schedule.nextDue(), 100)
    }

    func testARoomIsSteppedByOneThreadAtATime() {
        var schedule = StepSchedule<String>()
        schedule.wake("a", at: 0)
        let taken = schedule.take(now: 0)!
        schedule.wake("a", at: 0)  // a command arrives while it steps
        XCTAssertNil(schedule.take(now: 1), "still stepping: not handed out twice")
        schedule.finished("a", due: taken.due, now: 0.02, interval: 0.05, moving: true)
        XCTAssertEqual(schedule.nextDue(), 0.05)
    }

    func testAnOverrunIsFollowedAtOnceNotByAFullInterval() {
        var schedule = StepSchedule<String>()
        schedule.wake("a", at: 0)
        let (room, due) = schedule.take(now: 0)!
        schedule.finished(room, due: due, now: 0.3, interval: 0.05, moving: true)
        XCTAssertEqual(schedule.nextDue(), 0.3)
    }

    func testWakingEarlierMovesTheStepUpAndRestingDropsIt() {
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
        while let (room, due) = schedule.take(now: 10) {
            XCTAssertGreaterThanOrEqual(due, last)
            XCTAssertEqual(due, dues[room])
            last = due
            seen += 1
        }
        XCTAssertEqual(seen, 500)
    }
}
