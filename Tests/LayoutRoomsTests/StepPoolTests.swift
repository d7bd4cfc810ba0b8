import EventBus
import ForceLayout
import Synchronization
import XCTest
@testable import LayoutCore
@testable import LayoutRooms

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

    private func frames(_ room: Room) -> Int { room.frames.current?.serial ?? 0 }

    func testRoomsHaveFramesAtTheirOwnRateStepSeveralTimesAFrameAndCommandsWakeRestingOnes() {
        let pool = StepPool(threads: 2)
        pool.start()
        defer { pool.stop() }
        let fast = room("fast", cells: 10, tickRate: 100), slow = room("slow", cells: 10, tickRate: 5)
        let resting = room("resting", cells: 0, tickRate: 100)
        for room in [fast, slow, resting] { pool.add(room) }
        XCTAssertTrue(waitUntil(10) { self.frames(fast) >= 30 && self.frames(slow) >= 4 })
        // Both published; the slow one far fewer frames (not a timing bound: 20 times fewer).
        XCTAssertLessThan(frames(slow), frames(fast))
        // Ten cells step in microseconds: each frame carries many steps.
        XCTAssertGreaterThan(slow.status.current.tick, 3 * frames(slow))
        XCTAssertGreaterThan(fast.status.current.tick, 3 * frames(fast))
        XCTAssertEqual(resting.status.current.tick, 0)

        resting.commands.push(QueuedCommand(command: .add(count: 3, spawn: .center), client: "c1", ref: nil) { _ in })
        pool.wake(resting)
        XCTAssertTrue(waitUntil(10) { resting.status.current.cells == 3 && resting.status.current.tick > 0 })

        // As `RoomHost.takeOut` does: gone, then out of the pool.
        fast.isGone.store(true, ordering: .releasing)
        pool.remove(fast)
        _ = fast.cellCount  // takes the room's lock: a turn under way does nothing after it
        let tick = fast.status.current.tick, serial = frames(fast)
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(fast.status.current.tick, tick, "a room out of the pool gets no turn")
        XCTAssertEqual(frames(fast), serial)
    }

    func testACommandForAMovingRoomIsAppliedBeforeItsNextFrame() {
        let pool = StepPool(threads: 1)
        pool.start()
        defer { pool.stop() }
        let slow = room("slow", cells: 10, tickRate: 1)  // a frame a second
        pool.add(slow)
        XCTAssertTrue(waitUntil(10) { self.frames(slow) >= 1 })
        let seen = Mutex<[EventKind]>([])
        let subscription = slow.bus.subscribe { envelope in seen.withLock { $0.append(envelope.event.kind) } }.subscription
        defer { subscription.cancel() }

        // A pin moves no cell in or out: applied at once, shown by the next frame turn.
        var serial = frames(slow)
        var sent = Date()
        slow.commands.push(QueuedCommand(command: .pin(id: 1, x: 0, y: 0, drag: false), client: "c1", ref: nil) { _ in })
        pool.wake(slow)
        XCTAssertTrue(waitUntil(10) { seen.withLock { $0.contains(.pinned) } })
        XCTAssertLessThan(Date().timeIntervalSince(sent), 0.5, "applied by an early turn, not at the next frame")
        XCTAssertEqual(frames(slow), serial, "an early turn that moved no cell in or out publishes no frame")

        // Cells joining: their frame follows at once.
        XCTAssertTrue(waitUntil(10) { self.frames(slow) > serial })  // past the frame turn, so the next is a second away
        serial = frames(slow)
        sent = Date()
        slow.commands.push(QueuedCommand(command: .add(count: 2, spawn: .center), client: "c1", ref: nil) { _ in })
        pool.wake(slow)
        XCTAssertTrue(waitUntil(10) { self.frames(slow) > serial })
        XCTAssertLessThan(Date().timeIntervalSince(sent), 0.5, "the frame with the new cells came with the early turn")
        XCTAssertEqual(slow.status.current.cells, 12)
    }
}
