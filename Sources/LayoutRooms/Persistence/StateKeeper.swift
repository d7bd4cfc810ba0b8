import Dispatch
import ForceLayout
import LayoutCore

/// A room's side of its state file: a save every 0.75 s while the layout changes, the last
/// one when the room closes, and cell ids handed out only below a durable reservation
/// (`IDReservation`), so none is handed out again after a kill -9. Used by whichever thread
/// steps the room (one at a time).
package struct StateKeeper: Sendable {
    private let saver: StateSaver
    private var ids: IDReservation
    private var dirty = false
    private var lastSave = DispatchTime(uptimeNanoseconds: 0)
    /// The reservation the file holds after the closing write (nil: no closing write yet).
    private var closedAt: CellID?
    /// What the room was last told: its writes fail (`savingChanged`).
    private(set) var isFailing = false
    /// The reservation an add waits for (`prepare`), offered and not yet known to be written.
    private var awaited: CellID?
    /// Written anew (`writeAgainNow`) and no write has reached the destination since.
    private var rewriting = false

    /// Seconds between writes while the layout changes, and while writes fail.
    static let saveInterval: UInt64 = 750_000_000
    static let retryInterval: UInt64 = 5_000_000_000

    /// `closed`: the file already holds this layout with the exact next id as its reservation
    /// (a clean close), so closing again without a change writes nothing.
    package init(saver: StateSaver, ids: IDReservation, closed: CellID? = nil) {
        self.saver = saver
        self.ids = ids
        closedAt = closed
    }

    /// Returns once the writes offered so far have ended (a reservation an add waits for).
    func waitForWrites() {
        saver.waitForWrites()
    }

    /// The layout changed: save it when due.
    mutating func changed() {
        dirty = true
        closedAt = nil
    }

    /// The layout changed in a way that must not wait for the next save's turn (the room's
    /// access): saved at the end of this turn.
    mutating func saveSoon() {
        changed()
        lastSave = DispatchTime(uptimeNanoseconds: 0)
    }

    /// Asks for the first block when the room opens, so its first add normally finds it durable.
    mutating func start(_ state: LayoutState) {
        if ids.ahead(nextID: state.simulation.nextID) != nil { save(state) }
    }

    /// The destination lost what it held (Redis restarted empty): the layout is written at
    /// once, and until a write reaches it every 0.75 s, not at the pace of retries of failed
    /// writes (5 s), so the room's state is there again for a server that would take it over.
    mutating func writeAgainNow() {
        dirty = true
        closedAt = nil
        lastSave = DispatchTime(uptimeNanoseconds: 0)
        rewriting = true
    }

    /// Whether a save is still to come (the layout changed since the last one).
    var isDirty: Bool { dirty }

    /// Whether an add of `count` ids may be applied now (`Preparation`), without waiting on
    /// this thread: when the ids would cross the durable reservation, a larger one is offered
    /// (written off this thread) and the add waits for it, turn after turn, while the room
    /// goes on stepping and publishing. A room whose state is in Redis never waits on Redis
    /// where its frames are made: a stalled Redis delays its adds, not its frames.
    mutating func prepare(adding count: Int, to state: LayoutState) -> Preparation {
        ids.confirm(durable: saver.durableReservation)
        guard count > 0, state.simulation.nextID + count > ids.durable else {
            awaited = nil
            return .ready
        }
        // A write under way may carry enough (a save, or the reservation asked for).
        if saver.isBusy { return .waiting }
        if awaited != nil {
            // The reservation's write ended and did not reach the disk (or Redis).
            awaited = nil
            return .failed(Self.unreserved)
        }
        guard case .wait(let reservation) = ids.admit(nextID: state.simulation.nextID, count: count) else { return .ready }
        closedAt = nil
        saver.offer(state.saved(reservation: reservation, settled: false))
        lastSave = .now()
        awaited = reservation
        return .waiting
    }

    enum Preparation: Equatable, Sendable {
        /// Apply it now (`reserve` will not wait).
        case ready
        /// A write of the reservation is under way: keep the command for a later turn.
        case waiting
        /// The write failed: refuse the command with this error.
        case failed(ProtocolError)
    }

    static let unreserved = ProtocolError(.unavailable, "cannot add cells: the state file could not be written, so no ids can be reserved (see the server log)")

    /// Before `count` ids are handed out from `simulation.nextID` on: when they would cross the
    /// durable reservation, writes a larger one and waits for it (on this thread; adds
    /// normally never wait, since the next block is asked for once half the current one is
    /// used). Throws, handing out nothing, when that write fails.
    mutating func reserve(_ count: Int, for state: LayoutState) throws(ProtocolError) {
        let simulation = state.simulation
        closedAt = nil
        ids.confirm(durable: saver.durableReservation)
        var admission = ids.admit(nextID: simulation.nextID, count: count)
        if case .wait(let reservation) = admission {
            saver.writeNow(state.saved(reservation: reservation, settled: false))
            ids.confirm(durable: saver.durableReservation)
            admission = ids.admit(nextID: simulation.nextID, count: count)
        }
        switch admission {
        case .proceed(extendTo: nil):
            break
        case .proceed(extendTo: _?):
            saver.offer(state.saved(reservation: ids.requested, settled: false))
            lastSave = .now()
        case .wait:
            throw Self.unreserved
        }
    }

    /// While the layout changes, a write every 0.75 s: a kill -9 loses at most the last
    /// second of changes (never ids: see `reserve`). While writes fail, one every 5 s. Returns
    /// whether a save is still to come or still under way (the room turns until it knows how
    /// it went: `savingChanged`).
    mutating func saveIfDue(_ state: LayoutState) -> Bool {
        guard dirty else { return saver.isBusy }
        let interval = isFailing && !rewriting ? Self.retryInterval : Self.saveInterval
        guard DispatchTime.now().uptimeNanoseconds >= lastSave.uptimeNanoseconds + interval else { return true }
        save(state)
        return true
    }

    /// Whether the room's writes started failing (true) or reach the disk again (false) since
    /// it was last asked; nil when nothing changed or a write is under way. A failed write
    /// makes the layout due again, so it is retried.
    mutating func savingChanged() -> Bool? {
        guard !saver.isBusy else { return nil }
        let failed = saver.lastWriteFailed
        if failed { dirty = true } else { rewriting = false }
        guard failed != isFailing else { return nil }
        isFailing = failed
        return failed
    }

    /// The last write, when the room closes (unloaded, or the server stops): with the exact
    /// next id as the reservation, so a clean restart skips no ids. Skipped when the file
    /// already holds exactly that.
    mutating func close(_ state: LayoutState) {
        let reservation = IDReservation.closing(nextID: state.simulation.nextID)
        guard closedAt != reservation || dirty else { return }
        if saver.writeNow(state.saved(reservation: reservation, settled: state.settled)) {
            closedAt = reservation
            dirty = false
        }
    }

    /// The room is forgotten: its file goes (after any write under way, and instead of any
    /// write waiting).
    func discard() {
        saver.remove()
    }

    /// Offers the current layout with the highest reservation asked for, which every write
    /// carries: the reservation on disk never goes down.
    private mutating func save(_ state: LayoutState) {
        saver.offer(state.saved(reservation: ids.requested, settled: state.settled))
        lastSave = .now()
        dirty = false
        closedAt = nil
    }
}

extension LayoutCommand {
    /// How many cell ids the command hands out if it is applied (`StateKeeper.prepare`).
    var newIDs: Int {
        switch self {
        case .add(let count, _): count
        case .addCells(let cells, _): cells.count
        default: 0
        }
    }
}
