import XCTest
@testable import LayoutCore

final class DrainPlanTests: XCTestCase {
    func testInAClusterClientsMoveFirstThenWhoIsLeftIsClosed() {
        var plan = DrainPlan(now: 100, drainSeconds: 10, inCluster: true)
        XCTAssertEqual(plan.phase, .moving(until: 102))
        XCTAssertEqual(plan.moveDeadline, 102)
        XCTAssertFalse(plan.handsOff(clientsHere: 3), "a room stays while its clients move")
        XCTAssertTrue(plan.handsOff(clientsHere: 0), "a room goes once none of its clients is here")
        XCTAssertFalse(plan.windowEnds(now: 101.999))
        XCTAssertTrue(plan.windowEnds(now: 102))
        XCTAssertEqual(plan.phase, .closing)
        XCTAssertNil(plan.moveDeadline)
        XCTAssertFalse(plan.windowEnds(now: 103), "the window ends once")
        XCTAssertTrue(plan.handsOff(clientsHere: 3), "after the window every room goes")
        XCTAssertEqual(plan.deadline, 110)
        XCTAssertFalse(plan.isOver(now: 110, finished: false))
        XCTAssertTrue(plan.isOver(now: 110.001, finished: false), "--drain-seconds bounds it")
        XCTAssertTrue(plan.isOver(now: 103, finished: true))
    }

    func testTheWindowIsAtMostHalfTheDrain() {
        XCTAssertEqual(DrainPlan(now: 0, drainSeconds: 1, inCluster: true).moveDeadline, 0.5)
        XCTAssertEqual(DrainPlan(now: 0, drainSeconds: 3, inCluster: true).moveDeadline, 1.5)
        XCTAssertEqual(DrainPlan(now: 0, drainSeconds: 3600, inCluster: true).moveDeadline, DrainPlan.moveSeconds)
    }

    func testAServerOnItsOwnClosesAtOnce() {
        var plan = DrainPlan(now: 100, drainSeconds: 10, inCluster: false)
        XCTAssertEqual(plan.phase, .closing)
        XCTAssertNil(plan.moveDeadline)
        XCTAssertFalse(plan.windowEnds(now: 200))
        XCTAssertFalse(plan.handsOff(clientsHere: 0), "nobody to hand a room to: it is saved as the server stops")
    }

    func testTheReconnectMessage() throws {
        let object = try JSONSerialization.jsonObject(with: Data(ServerMessages.reconnect(closesInMs: 1500))) as? [String: Any]
        XCTAssertEqual(object?["type"] as? String, "reconnect")
        XCTAssertEqual(object?["closesInMs"] as? Int, 1500)
        XCTAssertEqual(object?.count, 2)
    }
}
