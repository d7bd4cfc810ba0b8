import ForceLayout

/// Cell ids reserved ahead in the state file, the way a database sequence caches blocks:
/// the file records a reservation, every id below it may have been handed out, and no id at
/// or above it ever was. The server hands out an id only below the *durable* reservation (one
/// a completed write put on disk), so after a kill -9 numbering resumes at or above every id
/// anyone saw.
///
/// Pure arithmetic, no I/O: each transition says what to write, and the caller reports back
/// what was written (`confirm`).
package struct IDReservation: Equatable, Sendable {
    /// How far ahead a write reserves (or the size of the add, if larger).
    static let defaultBlock = 1024

    let block: Int
    /// Where numbering resumes after a restart: `max(saved nextID, saved reservation)`.
    package let firstID: CellID
    /// Ids below it may be handed out: a state file holding it is on disk.
    package private(set) var durable: CellID
    /// The highest reservation asked to be written; above `durable` while a write is under way.
    package private(set) var requested: CellID

    /// What to do before handing out the ids of an add.
    package enum Admission: Equatable, Sendable {
        /// Every id of the add lies below the durable reservation: hand them out. `extendTo`,
        /// when set, is a reservation to write asynchronously (the block is half used).
        case proceed(extendTo: CellID?)
        /// The add would cross the durable reservation: write `reservation` durably, and wait
        /// for it, before any id of the add is handed out; then `confirm` and admit again.
        case wait(writing: CellID)
    }

    /// A server starting from a state file holding `nextID` and `reservation` (a file without
    /// a reservation: pass its `nextID`; no file: 1 and 1). Nothing above `firstID` is durable
    /// yet, so the first call to `ahead` asks for a block.
    package init(nextID: CellID, reservation: CellID, block: Int = defaultBlock) {
        precondition(block > 0, "a reservation block holds at least one id")
        self.block = block
        firstID = max(nextID, reservation)
        durable = firstID
        requested = firstID
    }

    /// Before handing out `count` ids from `nextID` on.
    package mutating func admit(nextID: CellID, count: Int) -> Admission {
        let end = nextID + count
        guard end <= durable else {
            requested = max(requested, end + max(block, count))
            return .wait(writing: requested)
        }
        return .proceed(extendTo: ahead(nextID: end, size: count))
    }

    /// Asks for the next block once at most half of the current one is left and no write is
    /// under way; nil otherwise. `size`: the add that used it, for blocks that keep up with
    /// large adds.
    package mutating func ahead(nextID: CellID, size: Int = 0) -> CellID? {
        guard requested == durable, durable - nextID <= block / 2 else { return nil }
        requested = max(durable, nextID) + max(block, size)
        return requested
    }

    /// A write holding `reservation` completed (fsync and rename): ids below it may be
    /// handed out. Older or failed writes are ignored (nothing is lowered).
    package mutating func confirm(durable reservation: CellID) {
        durable = max(durable, reservation)
        requested = max(requested, durable)
    }

    /// The reservation for the last write of a clean stop: the exact next id. No id at or
    /// above it was handed out and none will be, so the next run skips nothing.
    package static func closing(nextID: CellID) -> CellID { nextID }
}
