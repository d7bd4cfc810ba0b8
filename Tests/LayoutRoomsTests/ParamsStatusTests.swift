import EventBus
import Synchronization
import XCTest
@testable import LayoutCore
@testable import LayoutRooms

/// A joiner's `hello` is the room's status with the replayed events: a `params` event is on the
/// room's bus only once the status has its parameters (not a step later).
final class ParamsStatusTests: XCTestCase {
    private let budget = TurnBudget(frameInterval: 0.05, threads: 1, movingRooms: 1)

    func testTheStatusHasTheParametersOfAParamsEventWhenTheEventIsPublished() {
        let room = HistoryRooms.room("tuned", cells: 3)
        _ = room.installLocal { RoomLayout(state: HistoryRooms.state(cells: 3), keeper: nil) }
        _ = room.turn(budget: budget, early: false)
        let seen = Mutex<[Double]>([])
        let (subscription, _) = room.bus.subscribe(.all, replayLast: 0) { envelope in
            // On the step thread, as the event is published: what a joiner greeted now reads.
            if envelope.event.kind == .params { seen.withLock { $0.append(room.status.current.parameters.charge) } }
        }
        defer { subscription.cancel() }
        var change = ParameterChange()
        change.charge = 77
        room.commands.push(QueuedCommand(command: .params(change), client: "c1", ref: nil) { _ in })
        _ = room.turn(budget: budget, early: false)
        XCTAssertEqual(seen.withLock { $0 }, [77])
    }
}
