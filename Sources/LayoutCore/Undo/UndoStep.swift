import ForceLayout

/// A removed cell as it was, to bring it back: its place, pin and radius (`CellRecord`), its
/// data and who added it.
public struct RemovedCell: Equatable, Sendable {
    public var record: CellRecord
    public var data: CellData
    public var owner: String?
}

/// A cell's data, radius and (when the change moved it) place before an `update`.
public struct CellBefore: Equatable, Sendable {
    public var id: CellID
    public var data: CellData
    public var radius: Double?
    public var position: (x: Double, y: Double)?

    public static func == (lhs: CellBefore, rhs: CellBefore) -> Bool {
        lhs.id == rhs.id && lhs.data == rhs.data && lhs.radius == rhs.radius
            && lhs.position?.x == rhs.position?.x && lhs.position?.y == rhs.position?.y
    }
}

/// One change a client made, as its undo needs it: what puts the layout back (`Inverse`),
/// the event it undoes (`seq`), what it touched (`keys`, with what they held before it, for
/// the `TouchLedger`), and how to name it to its client ("add 10 cells").
public struct UndoStep: Equatable, Sendable {
    public enum Inverse: Equatable, Sendable {
        /// Of an add: its cells go.
        case remove([CellID])
        /// Of a remove or clear: the cells come back, then their links.
        case restore([RemovedCell], links: [LinkRecord])
        /// Of a `params`: the previous values of the parameters it changed.
        case params(ParameterChange)
        /// Of a link: the links go.
        case unlink([LinkEnds])
        /// Of an unlink: the links come back, with their distance, strength and attrs.
        case link([LinkRecord])
        /// Of an update: the cells' data, radii and places before it.
        case update([CellBefore])
        /// Of a pin or unpin: the cell's pin and place before it (`pinned` false: it was free,
        /// at `x`, `y`).
        case pin(id: CellID, pinned: Bool, x: Double, y: Double)
        /// Of a restore: the room as it was just before it (at `at`), restored in its turn.
        case moment(SavedState, at: Int)
    }

    public var inverse: Inverse
    /// The number `UndoBook` gave the change (the order of every change it saw).
    public var stamp: Int
    /// The seq of the event the change published (0 until `UndoBook.published` says it).
    public var seq: UInt64 = 0
    /// When it was made, ms since 1970 (the event's `at`): a drag or a slider's moves merge.
    public var at: Int
    /// "add 10 cells": the change, as the `undoable` message names it.
    public var what: String
    /// "added": as a refusal says it ("c7 linked cell 12 since you added it").
    public var verb: String
    /// The keys it touched, and what the ledger held for each before.
    public var keys: [UndoKey]
    public var previous: [Touch?]

    /// The keys whose later touch by someone else forbids the undo: all, but for a link or
    /// unlink only the links (someone may relabel or pin a linked cell).
    var guarded: [UndoKey] {
        switch inverse {
        case .unlink, .link: keys.filter { if case .link = $0 { true } else { false } }
        default: keys
        }
    }

    /// Cells and links it holds: what `UndoBook` bounds besides the steps' count.
    var weight: Int {
        switch inverse {
        case .remove(let ids): ids.count
        case .restore(let cells, let links): cells.count + links.count
        case .params: 1
        case .unlink(let ends): ends.count
        case .link(let links): links.count
        case .update(let cells): cells.count
        case .pin: 1
        case .moment(let saved, _): saved.layout.cells.count + saved.layout.links.count
        }
    }

    /// "3 cells", "cell 12".
    static func cells(_ ids: [CellID]) -> String {
        ids.count == 1 ? "cell \(ids[0])" : "\(ids.count) cells"
    }

    /// "3 links", "the link between cells 1 and 2".
    static func links(_ ends: [LinkEnds]) -> String {
        ends.count == 1 ? "the link between cells \(ends[0].source) and \(ends[0].target)" : "\(ends.count) links"
    }
}
