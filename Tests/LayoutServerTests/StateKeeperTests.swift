import Synchronization
import ForceLayout
import XCTest
@testable import LayoutServer

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
}
