import EventBus
import ForceLayout
import XCTest
@testable import LayoutServer

/// The pool with real threads: rooms get their turns, each at its own rate, and rest.
/// (When each room is due is `StepSchedule`'s, tested without threads.)
final class StepPoolTests: XCTestCase {
    private func room(_ name: String, cells: Int, tickRate: Double) -> Room {
        var parameters = Parameters.defaults
        parameters.tickRate = tickRate
        parameters.threshold = 0  // never settles
        let simulation = Simulation(parameters: parameters, seed: 3)
        simulation.add(count: cells, spawn: .random)
        let state = LayoutState(simulation: simulation, limits: Limits())
        return Room(name: RoomName(name)!, layout: RoomLayout(state: state, keeper: nil), replay: ReplayBounds(events: 16),
                    changed: ChangedRooms())
    }

    private func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }

    func testRoomsStepAtTheirOwnRateAndCommandsWakeRestingOnes() {
        let pool = StepPool(threads: 2)
        pool.start()
        defer { pool.stop() }
        let fast = room("fast", cells: 10, tickRate: 100), slow = room("slow", cells: 10, tickRate: 5)
        let resting = room("resting", cells: 0, tickRate: 100)
        for room in [fast, slow, resting] { pool.add(room) }
        XCTAssertTrue(waitUntil(10) { fast.status.current.tick >= 50 })
        // Both stepped; the slow one far less often (not a timing bound: 20 times slower).
        XCTAssertGreaterThan(slow.status.current.tick, 0)
        XCTAssertLessThan(slow.status.current.tick, fast.status.current.tick)
        XCTAssertEqual(resting.status.current.tick, 0)

        resting.commands.push(QueuedCommand(command: .add(count: 3, spawn: .center), client: "c1", ref: nil) { _ in })
        pool.wake(resting)
        XCTAssertTrue(waitUntil(10) { resting.status.current.cells == 3 && resting.status.current.tick > 0 })

        pool.remove(fast)
        _ = fast.cellCount  // takes the room's lock: a turn already under way has ended
        let tick = fast.status.current.tick
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(fast.status.current.tick, tick, "a room out of the pool gets no turn")
    }
}
