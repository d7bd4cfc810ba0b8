import ForceLayout
import Synchronization
import XCTest
@testable import LayoutCore
@testable import LayoutRooms

/// A destination whose writes fail while `full` (a full disk).
private final class FillingDisk: StateDestination {
    let full = Atomic<Bool>(true)
    let written = Mutex<[SavedState]>([])

    func write(_ state: SavedState) -> Bool {
        guard !full.load(ordering: .acquiring) else { return false }
        written.withLock { $0.append(state) }
        return true
    }

    func remove() {}
}

/// A destination whose writes wait until `release` (a stalled Redis), then fail while `full`.
private final class StalledStore: StateDestination {
    let gate = DispatchSemaphore(value: 0)
    let full = Atomic<Bool>(false)
    let written = Mutex<[CellID]>([])

    func write(_ state: SavedState) -> Bool {
        gate.wait()
        guard !full.load(ordering: .acquiring) else { return false }
        written.withLock { $0.append(state.reservation) }
        return true
    }

    func release() { gate.signal() }

    func remove() {}
}

final class StateKeeperTests: XCTestCase {
    private func settle(_ saver: StateSaver) {
        let deadline = Date().addingTimeInterval(5)
        while saver.isBusy, Date() < deadline { usleep(1000) }
    }

    func testAFailedWriteIsToldOnceRetriedAndAWriteThatReachesTheDiskEndsIt() {
        let disk = FillingDisk()
        let saver = StateSaver(disk)
        var keeper = StateKeeper(saver: saver, ids: IDReservation(nextID: 1, reservation: 1))
        var state = LayoutState(simulation: Simulation(seed: 3), limits: Limits())
        XCTAssertNil(keeper.savingChanged(), "nothing written yet: nothing to tell")
        _ = try? state.apply(.add(count: 3, spawn: .random), from: "c1")
        keeper.changed()
        XCTAssertTrue(keeper.saveIfDue(state), "the room turns until it knows how the write went")
        settle(saver)
        XCTAssertEqual(keeper.savingChanged(), true)
        XCTAssertTrue(keeper.isFailing)
        XCTAssertNil(keeper.savingChanged(), "told once")
        XCTAssertTrue(keeper.isDirty, "a failed write is due again")
        XCTAssertTrue(keeper.saveIfDue(state), "retried later, not at once")

        disk.full.store(false, ordering: .releasing)
        keeper.close(state)
        XCTAssertEqual(keeper.savingChanged(), false)
        XCTAssertFalse(keeper.isFailing)
        XCTAssertEqual(disk.written.withLock { $0.last?.layout.cells.count }, 3)
    }

    func testAnAddPastTheReservationWaitsForItsWriteWithoutBlockingTheTurn() {
        let store = StalledStore()
        let saver = StateSaver(store)
        var keeper = StateKeeper(saver: saver, ids: IDReservation(nextID: 1, reservation: 1, block: 10))
        let state = LayoutState(simulation: Simulation(seed: 3), limits: Limits())
        XCTAssertEqual(keeper.prepare(adding: 0, to: state), .ready, "a command that adds nothing never waits")
        let started = Date()
        XCTAssertEqual(keeper.prepare(adding: 5, to: state), .waiting, "the reservation is written off this thread")
        XCTAssertEqual(keeper.prepare(adding: 5, to: state), .waiting, "still under way: asked for once")
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5, "the turn did not wait for the store")
        store.release()
        settle(saver)
        XCTAssertEqual(store.written.withLock { $0 }, [16], "one write: past the add by a block")
        XCTAssertEqual(keeper.prepare(adding: 5, to: state), .ready)
        XCTAssertNoThrow(try keeper.reserve(5, for: state), "reserve then hands the ids out without waiting")

        // A write that fails: the add is refused, and the next one asks again.
        store.full.store(true, ordering: .releasing)
        XCTAssertEqual(keeper.prepare(adding: 20, to: state), .waiting)
        store.release()
        settle(saver)
        XCTAssertEqual(keeper.prepare(adding: 20, to: state), .failed(StateKeeper.unreserved))
        XCTAssertEqual(keeper.prepare(adding: 20, to: state), .waiting, "tried again for the next add")
        store.full.store(false, ordering: .releasing)
        store.release()
        settle(saver)
        XCTAssertEqual(keeper.prepare(adding: 20, to: state), .ready)
    }

    func testALayoutWrittenAnewIsWrittenAtOnceEvenWhileWritesFail() {
        let disk = FillingDisk()
        let saver = StateSaver(disk)
        var keeper = StateKeeper(saver: saver, ids: IDReservation(nextID: 1, reservation: 1))
        var state = LayoutState(simulation: Simulation(seed: 3), limits: Limits())
        _ = try? state.apply(.add(count: 2, spawn: .random), from: "c1")
        keeper.changed()
        _ = keeper.saveIfDue(state)
        settle(saver)
        XCTAssertEqual(keeper.savingChanged(), true, "the write failed: retries every 5 s")
        disk.full.store(false, ordering: .releasing)
        _ = keeper.saveIfDue(state)
        settle(saver)
        XCTAssertTrue(disk.written.withLock { $0.isEmpty }, "not retried at once")
        // Redis restarted empty: the layout goes again now.
        keeper.writeAgainNow()
        _ = keeper.savingChanged()
        _ = keeper.saveIfDue(state)
        settle(saver)
        XCTAssertEqual(disk.written.withLock { $0.count }, 1)
        XCTAssertEqual(keeper.savingChanged(), false)
    }
}
