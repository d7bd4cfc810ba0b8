/// Errors of the layout API.
public enum LayoutError: Error, Equatable, Sendable {
    /// The id is not a current cell (or, from `init(snapshot:)`, not a valid id there).
    case unknownCell(CellID)
    /// A non-finite coordinate.
    case invalidPosition
}
