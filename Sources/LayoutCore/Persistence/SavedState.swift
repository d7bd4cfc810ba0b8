import ForceLayout

/// What a state file holds: the layout and how far cell ids are reserved.
public struct SavedState: Equatable, Sendable {
    public var layout: LayoutSnapshot
    /// Every id below it may have been handed out; none at or above it was (see
    /// `IDReservation`). Never below `layout.nextID` in a file this server wrote.
    public var reservation: CellID
    /// Whether the layout was at rest when written: it is restored at rest, so a room unloaded
    /// and loaded again (or a server restarted) does not move a settled layout at all.
    public var settled: Bool
    /// The cells' labels, colours and groups (radii and links are in `layout`).
    public var catalog: CellCatalog
    /// Who may come in, and as what (files before version 5: `open`, no links).
    public var access: RoomAccess
    /// Who added which cells (`Ownership.Run`s of live cells; none in files before them).
    public var owners: [Ownership.Run]

    public init(layout: LayoutSnapshot, reservation: CellID, settled: Bool = false, catalog: CellCatalog = CellCatalog(),
                access: RoomAccess = .unowned, owners: [Ownership.Run] = []) {
        self.layout = layout
        self.owners = owners
        self.access = access
        self.reservation = reservation
        self.settled = settled
        self.catalog = catalog
    }
}

extension LayoutState {
    /// What the state file is to hold now, with this reservation.
    package func saved(reservation: CellID, settled: Bool) -> SavedState {
        SavedState(layout: simulation.snapshot(), reservation: reservation, settled: settled, catalog: catalog, access: access,
                   owners: ownership.narrowed(to: simulation.ids))
    }
}
