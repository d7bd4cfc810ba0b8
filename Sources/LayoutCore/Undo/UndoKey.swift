import ForceLayout

/// What a change touched, for telling whether someone built on it since: a cell, the link
/// between two cells (either way round), a parameter by its wire name.
public enum UndoKey: Hashable, Sendable {
    case cell(CellID)
    case link(CellID, CellID)
    case param(String)

    /// The link between `a` and `b`, whichever way round.
    static func pair(_ a: CellID, _ b: CellID) -> UndoKey { .link(Swift.min(a, b), Swift.max(a, b)) }

    /// As a refusal names it: "cell 12", "the link between cells 3 and 4", "charge".
    var described: String {
        switch self {
        case .cell(let id): "cell \(id)"
        case .link(let a, let b): "the link between cells \(a) and \(b)"
        case .param(let name): name
        }
    }
}

/// The last change that touched a key: its number (`UndoBook` numbers every change it sees),
/// the client who made it, and what it did ("linked", "removed"…), for a refusal's words.
public struct Touch: Equatable, Sendable {
    public var stamp: Int
    public var client: String
    public var verb: String
}
