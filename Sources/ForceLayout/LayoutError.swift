/// Errors of the layout API.
public enum LayoutError: Error, Equatable, Sendable {
    /// The id is not a current cell (or, from `init(snapshot:)`, not a valid id there).
    case unknownCell(CellID)
    /// A non-finite coordinate.
    case invalidPosition
    /// A link from a cell to itself.
    case selfLink(CellID)
    /// A link between cells that are already linked (either way round).
    case duplicateLink(CellID, CellID)
    /// No link between these cells.
    case unknownLink(CellID, CellID)
    /// A radius outside `Simulation.radiusRange`.
    case invalidRadius(Double)
    /// A link's distance is not finite and at least 0, or its strength not finite and at least 0.
    case invalidLink(CellID, CellID)
}
