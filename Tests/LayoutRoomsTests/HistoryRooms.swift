import EventBus
import ForceLayout
@testable import LayoutCore
@testable import LayoutRooms

/// The rooms and layouts the history's tests turn by hand: `cells` random cells, moving for
/// ever (`threshold` 0) or left to settle, with a history of a GiB and an hour.
enum HistoryRooms {
    static func state(cells: Int, moving: Bool = false) -> LayoutState {
        var parameters = Parameters.defaults
        if moving { parameters.threshold = 0 }  // never settles
        let simulation = Simulation(parameters: parameters, seed: 3)
        simulation.add(count: cells, spawn: .random)
        return LayoutState(simulation: simulation, limits: Limits())
    }

    static func history() -> RoomHistory {
        RoomHistory(bounds: HistoryBounds(bytes: 1 << 30, seconds: 3600))
    }

    static func room(_ name: String, cells: Int, moving: Bool = false) -> Room {
        Room(name: RoomName(name)!, layout: RoomLayout(state: state(cells: cells, moving: moving), keeper: nil),
             replay: ReplayBounds(events: 64), history: history(), changed: ChangedRooms())
    }
}
