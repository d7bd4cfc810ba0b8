import ForceLayout

/// The shared layout as a value: the simulation, who added which cells, and whether it is at
/// rest. No threads, no I/O, no clock: a room's turn (`RoomLayout`, on a thread of the
/// `StepPool`) drains the command queue into `apply`, calls `step`, and publishes what they
/// return.
///
/// - `apply` validates a command against the layout and the limits, changes the layout all or
///   nothing, and returns the events that say what happened (then `woke` when it woke a settled
///   layout). A command that changes nothing returns no events.
/// - `step` moves the cells once when the layout is neither settled nor paused, and returns
///   `settled` when that step came to rest. "Settled" is the engine's report, one definition.
/// - `takeChanges` tells the loop what to publish: a frame (positions or membership moved),
///   the status, and the pinned set when it changed.
///
/// It wraps the `Simulation` (a reference type) and is owned by one thread at a time.
public struct LayoutState {
    /// What changed since the loop last took the changes.
    public struct Changes: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let membership = Changes(rawValue: 1)
        public static let positions = Changes(rawValue: 2)
        public static let pins = Changes(rawValue: 4)
        public static let other = Changes(rawValue: 8)
        /// Cells' labels, colours or groups: nothing moves for it.
        public static let data = Changes(rawValue: 16)
        /// The room's access (its mode or links): connections are checked again.
        public static let access = Changes(rawValue: 32)

        /// A new frame is due: cells moved, or joined or left.
        public var needsFrame: Bool { !isDisjoint(with: [.membership, .positions]) }
    }

    /// Called before an `add` hands out `count` ids from `simulation.nextID` on; throws to
    /// refuse the add (the state file's id reservation could not be written).
    public typealias IDReserver = (_ count: Int, _ state: LayoutState) throws(ProtocolError) -> Void

    /// Replaced only by a restore (`LayoutState+Restore`); otherwise changed in place.
    public internal(set) var simulation: Simulation
    public let limits: Limits
    /// The cells of every room together (`maxTotalCells`); nil: this layout alone counts.
    public let budget: CellBudget?
    public package(set) var ownership = Ownership()
    /// The cells' labels, colours and groups (radii are the engine's).
    public package(set) var catalog: CellCatalog
    /// Increments whenever a cell's data, a radius or a link changes: the `data` message
    /// for late joiners is encoded again only then.
    public package(set) var dataVersion = 0
    /// Who may come into the room, and as what; saved with the layout.
    public package(set) var access: RoomAccess
    public internal(set) var settled: Bool
    /// Cells pinned by a drag, and the connection dragging each (`releaseDrags`).
    var dragPins: [CellID: String] = [:]
    /// Each client's last changes, to undo (`undo`; LayoutState+Undo.swift). In memory only.
    public package(set) var undo: UndoBook
    /// Since the last `takeChanges`; everything is due at first.
    var changes: Changes = [.membership, .positions, .pins, .other, .access]

    /// `budget` must already count the cells `simulation` holds. `settled`: what a state file
    /// says of a restored layout (nil: what the engine reports).
    public init(simulation: Simulation, limits: Limits, budget: CellBudget? = nil, settled: Bool? = nil,
                catalog: CellCatalog = CellCatalog(), access: RoomAccess = .unowned, ownership: Ownership = Ownership()) {
        self.simulation = simulation
        self.ownership = ownership
        self.access = access
        self.catalog = catalog
        self.limits = limits
        self.budget = budget
        self.settled = settled ?? simulation.lastReport.settled
        undo = UndoBook(depth: limits.undoDepth, maxWeight: 2 * (limits.maxCells + limits.maxLinks))
    }

    public var parameters: Parameters { simulation.parameters }

    /// Whether the next `step` moves the cells.
    public var isStepping: Bool { !settled && !simulation.parameters.paused }

    /// Applies `command` from `client`: all or nothing. Returns the events to publish, in order.
    /// `client` closed (or left the room): the cells it held by dragging (`pin` with `drag`,
    /// not pinned again since) are released, an `unpinned` event each, by nobody.
    public mutating func releaseDrags(of client: String) -> [LayoutEvent] {
        let held = dragPins.filter { $0.value == client }.keys.sorted()
        var events: [LayoutEvent] = []
        for id in held {
            dragPins[id] = nil
            guard simulation.isPinned(id), (try? simulation.unpin(id)) != nil else { continue }
            events.append(LayoutEvent(kind: .unpinned, by: nil, tick: simulation.tick, detail: .unpinned(id: id)))
        }
        guard !events.isEmpty else { return [] }
        changes.formUnion([.pins, .other])
        guard settled else { return events }
        settled = false
        return events + [LayoutEvent(kind: .woke, by: nil, tick: simulation.tick, detail: .none)]
    }

    public mutating func apply(_ command: LayoutCommand, from client: String,
                        reserveIDs: IDReserver = { _, _ throws(ProtocolError) in }) throws(ProtocolError) -> [LayoutEvent] {
        // A command that was on its way when the owner deleted the room changes nothing.
        guard !access.deleted else { throw ProtocolError(.forbidden, "the room was deleted by its owner") }
        if case .undo = command { return try undoLast(by: client) }
        let before = undoBefore(command, by: client)
        guard let (event, changed) = try change(command, by: client, reserveIDs: reserveIDs) else { return [] }
        if let before { recordUndo(before, of: event, by: client) }
        return finish([event], changed)
    }

    /// What applying made `changed`, with the `woke` that follows when it woke the layout.
    mutating func finish(_ events: [LayoutEvent], _ changed: Changes) -> [LayoutEvent] {
        guard let event = events.last else { return [] }
        changes.formUnion(changed)
        // A label, colour or group, or the room's access, moves nothing: a layout at rest stays
        // at rest; a deleted room does not wake.
        guard settled, !changed.isSubset(of: [.data, .access]), !access.deleted else { return events }
        settled = false
        return events + [LayoutEvent(kind: .woke, by: nil, tick: event.tick, detail: .none)]
    }

    /// Steps once when the layout is moving; returns `settled` when this step came to rest.
    /// `parallel`: as `Simulation.step`.
    public mutating func step(parallel: Bool? = nil) -> [LayoutEvent] {
        guard isStepping else { return [] }
        let report = simulation.step(parallel: parallel)
        changes.insert(.positions)
        guard report.settled else { return [] }
        settled = true
        return [LayoutEvent(kind: .settled, by: nil, tick: simulation.tick, detail: .none)]
    }

    /// Whether cells joined or left since the last `takeChanges` (a frame should follow soon).
    public var membershipChanged: Bool { changes.contains(.membership) }

    /// The pinned set, if it changed since the last `takeChanges` (which still reports it).
    public var pinnedIfChanged: [CellID]? { changes.contains(.pins) ? simulation.pinnedIDs : nil }

    /// What changed since the last call, and the pinned set if it changed.
    /// Everything is due again, as at first (a cluster's owner whose copy in Redis was lost
    /// publishes it all anew).
    package mutating func republishAll() {
        changes = [.membership, .positions, .pins, .other, .access]
    }

    /// The next turn publishes a frame even if nothing moved (a cluster's relay got a v1
    /// client, and the frames it has lack the text form).
    package mutating func republishFrame() {
        changes.insert(.positions)
    }

    public mutating func takeChanges() -> (changes: Changes, pinned: [CellID]?) {
        defer { changes = [] }
        return (changes, changes.contains(.pins) ? simulation.pinnedIDs : nil)
    }
}
