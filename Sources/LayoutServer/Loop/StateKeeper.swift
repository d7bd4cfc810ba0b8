import Dispatch
import ForceLayout

/// The simulation thread's side of `--state`: a save every 0.75 s while the layout changes,
/// the last one on stop, and cell ids handed out only below a durable reservation
/// (`IDReservation`), so none is handed out again after a kill -9.
struct StateKeeper: Sendable {
    private let saver: StateSaver
    private var ids: IDReservation
    private var dirty = false
    private var lastSave = DispatchTime(uptimeNanoseconds: 0)

    init(saver: StateSaver, ids: IDReservation) {
        self.saver = saver
        self.ids = ids
    }

    /// The layout changed: save it when due.
    mutating func changed() { dirty = true }

    /// Asks for the first block at once, so the first add normally finds it durable.
    mutating func start(_ simulation: Simulation) {
        if ids.ahead(nextID: simulation.nextID) != nil { save(simulation) }
    }

    /// Before `count` ids are handed out from `simulation.nextID` on: when they would cross the
    /// durable reservation, writes a larger one and waits for it (on this thread; adds
    /// normally never wait, since the next block is asked for once half the current one is
    /// used). Throws, handing out nothing, when that write fails.
    mutating func reserve(_ count: Int, for simulation: Simulation) throws(ProtocolError) {
        ids.confirm(durable: saver.durableReservation)
        var admission = ids.admit(nextID: simulation.nextID, count: count)
        if case .wait(let reservation) = admission {
            saver.writeNow(SavedState(layout: simulation.snapshot(), reservation: reservation))
            ids.confirm(durable: saver.durableReservation)
            admission = ids.admit(nextID: simulation.nextID, count: count)
        }
        switch admission {
        case .proceed(extendTo: nil):
            break
        case .proceed(extendTo: _?):
            save(simulation)
        case .wait:
            throw ProtocolError(.unavailable, "cannot add cells: the state file could not be written, so no ids can be reserved (see the server log)")
        }
    }

    /// While the layout changes, a write every 0.75 s: with the idle loop's 250 ms wait, a
    /// kill -9 loses at most the last second of changes (never ids: see `reserve`).
    mutating func saveIfDue(_ simulation: Simulation) {
        guard dirty, DispatchTime.now().uptimeNanoseconds >= lastSave.uptimeNanoseconds + 750_000_000 else { return }
        save(simulation)
    }

    /// The last write, on stop: with the exact next id as the reservation, so a clean restart
    /// skips no ids.
    func close(_ simulation: Simulation) {
        let reservation = IDReservation.closing(nextID: simulation.nextID)
        saver.writeNow(SavedState(layout: simulation.snapshot(), reservation: reservation))
    }

    /// Offers the current layout with the highest reservation asked for, which every write
    /// carries: the reservation on disk never goes down.
    private mutating func save(_ simulation: Simulation) {
        saver.offer(SavedState(layout: simulation.snapshot(), reservation: ids.requested))
        lastSave = .now()
        dirty = false
    }
}
