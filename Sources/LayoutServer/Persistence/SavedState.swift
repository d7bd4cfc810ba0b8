import ForceLayout

/// What a state file holds: the layout and how far cell ids are reserved.
public struct SavedState: Equatable, Sendable {
    public var layout: LayoutSnapshot
    /// Every id below it may have been handed out; none at or above it was (see
    /// `IDReservation`). Never below `layout.nextID` in a file this server wrote.
    public var reservation: CellID

    public init(layout: LayoutSnapshot, reservation: CellID) {
        self.layout = layout
        self.reservation = reservation
    }
}
