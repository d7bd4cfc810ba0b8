/// Which physics moves a room's cells (`Parameters.model`).
public enum LayoutModel: String, CaseIterable, Sendable {
    /// The graph model when the layout has links, else the cells model.
    case auto
    /// The "Force Directed Layout" article: a spring to the center and charges (`Simulation+Step`).
    case cells
    /// sfdp's spring-electrical model, multilevel (`Graph/`), links or not.
    case graph

    /// Whether a layout with or without links moves under the graph model.
    public func usesGraphModel(hasLinks: Bool) -> Bool {
        switch self {
        case .auto: hasLinks
        case .cells: false
        case .graph: true
        }
    }
}
