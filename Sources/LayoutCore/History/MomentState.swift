import EventBus
import ForceLayout
import OrderedCollections

/// A room as it was at one moment of its history, rebuilt from a checkpoint (`SavedState`) and
/// the events after it: which cells, their data, links, parameters, pins and owners. Positions
/// come from keyframes (`positions`); a cell's own from its pin while pinned. Pure.
public struct MomentState: Sendable {
    public private(set) var parameters: Parameters
    /// Above every id ever handed out up to this moment.
    public private(set) var nextID: CellID
    /// Every cell, ascending, with its data (empty when it has none) and radius.
    public var cells: OrderedDictionary<CellID, CellRecordData> {
        guard !removed.isEmpty else { return cellStore }
        return cellStore.filter { !removed.contains($0.key) }
    }
    /// In the order they were made, by their ends (smaller id first).
    public var links: OrderedDictionary<LinkEnds, LinkRecord> {
        guard !removed.isEmpty else { return linkStore }
        return linkStore.filter { !removed.contains($0.key.source) && !removed.contains($0.key.target) }
    }
    /// The cells and links, with those of cells removed since the last `compact` (`removed`):
    /// taking a cell out of an ordered dictionary moves every one after it in its hash table,
    /// so the `removed` events of a busy 10k-cell room took half a scrub's time, and looking
    /// through every link at each took three quarters before that. They go all at once when
    /// the events are applied (`compact`), or when an undo brings one of the cells back (`add`).
    private var cellStore: OrderedDictionary<CellID, CellRecordData>
    private var linkStore: OrderedDictionary<LinkEnds, LinkRecord>
    private var removed: Set<CellID> = []
    public private(set) var pins: [CellID: (x: Double, y: Double)]
    /// Who added each cell (cells the checkpoint's runs do not name: nobody).
    public private(set) var owners: [CellID: String]
    /// The checkpoint's positions: where a cell no keyframe shows was.
    public private(set) var positions: [CellID: (x: Double, y: Double)]
    /// The last event applied, and the last that changed cells, data or links.
    public private(set) var seq: UInt64
    public private(set) var dataSeq: UInt64
    public private(set) var tick: Int
    /// The checkpoint it was rebuilt from (`HistoryLog.moment` goes on from a state of the same
    /// checkpoint instead of rebuilding it).
    public let origin: (at: Int, seq: UInt64)
    /// Whether the layout was at rest then.
    public private(set) var settled: Bool

    public init(checkpoint: Checkpoint) {
        let state = checkpoint.state
        origin = (checkpoint.at, checkpoint.seq)
        parameters = state.layout.parameters
        nextID = state.layout.nextID
        cellStore = [:]
        pins = [:]
        positions = [:]
        owners = [:]
        cellStore.reserveCapacity(state.layout.cells.count)
        for cell in state.layout.cells {
            cellStore[cell.id] = CellRecordData(id: cell.id, data: state.catalog[cell.id], radius: cell.radius)
            positions[cell.id] = (cell.x, cell.y)
            if cell.pinned { pins[cell.id] = (cell.x, cell.y) }
        }
        linkStore = [:]
        linkStore.reserveCapacity(state.layout.links.count)
        for link in state.layout.links {
            linkStore[Self.ends(link.source, link.target)] = LinkRecord(link, attrs: state.catalog[link: link.source, link.target])
        }
        for run in state.owners {
            for id in run.first...run.last where cellStore[id] != nil { owners[id] = run.client }
        }
        seq = checkpoint.seq
        dataSeq = checkpoint.seq
        tick = checkpoint.tick
        settled = state.settled
    }

    /// Whether the cell is in the room.
    public func contains(_ id: CellID) -> Bool {
        cellStore[id] != nil && !removed.contains(id)
    }

    /// The cell's data, nil when it is not in the room.
    public func record(_ id: CellID) -> CellRecordData? {
        removed.contains(id) ? nil : cellStore[id]
    }

    /// Whether the room links the two cells (either way round).
    public func linked(_ a: CellID, _ b: CellID) -> Bool {
        contains(a) && contains(b) && linkStore[Self.ends(a, b)] != nil
    }

    /// Drops the cells removed by the events applied, and their links, all at once: a state is
    /// compacted before it is read by key (`PlaybackPlan`), else each read of `cells` or
    /// `links` filters them.
    public mutating func compact() {
        guard !removed.isEmpty else { return }
        cellStore.removeAll { removed.contains($0.key) }
        linkStore.removeAll { removed.contains($0.key.source) || removed.contains($0.key.target) }
        removed = []
    }

    /// `compact`, once the cells removed since are an eighth of those kept: a moment read by
    /// `forEachCell` and `forEachLink` skips them, and taking a few cells out of the ordered
    /// dictionaries rebuilt their hash tables (a third of a scrub's time, moment after moment).
    public mutating func tidy() {
        if removed.count >= max(64, cellStore.count / 8) { compact() }
    }

    /// The cells in the room, ascending, with their data, without filtering a copy (`cells`).
    public func forEachCell(_ body: (CellID, CellRecordData) throws -> Void) rethrows {
        if removed.isEmpty {
            for (id, record) in cellStore { try body(id, record) }
        } else {
            for (id, record) in cellStore where !removed.contains(id) { try body(id, record) }
        }
    }

    /// The ids of the cells in the room, ascending (`forEachCell` without their data).
    public func forEachCellID(_ body: (CellID) throws -> Void) rethrows {
        if removed.isEmpty {
            for id in cellStore.keys { try body(id) }
        } else {
            for id in cellStore.keys where !removed.contains(id) { try body(id) }
        }
    }

    /// The links in the room, in the order they were made, without filtering a copy (`links`).
    public func forEachLink(_ body: (LinkEnds, LinkRecord) throws -> Void) rethrows {
        if removed.isEmpty {
            for (ends, record) in linkStore { try body(ends, record) }
        } else {
            for (ends, record) in linkStore where !removed.contains(ends.source) && !removed.contains(ends.target) {
                try body(ends, record)
            }
        }
    }

    /// The room after `envelope`'s event (one that changes nothing of this kept no record);
    /// `compact` after the last.
    public mutating func apply(_ envelope: Envelope<LayoutEvent>) {
        let event = envelope.event
        seq = envelope.seq
        tick = event.tick
        switch event.kind {
        case .settled: settled = true
        case .woke: settled = false
        default: break
        }
        switch event.detail {
        case .added(let ids, let data) where data.count == ids.count && zip(ids, data).allSatisfy({ $0 == $1.id }):
            // each cell's data beside its id (as the room writes them): no table
            add(ids, by: event.by) { index, _ in data[index] }
        case .added(let ids, let data):
            let given = Dictionary(data.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            add(ids, by: event.by) { _, id in given[id] }
        case .cells(let ids) where event.kind == .added:
            add(ids, by: event.by) { _, _ in nil }
        case .cells(let ids):
            remove(ids)
        case .updated(let records):
            for var record in records where contains(record.id) {
                // An update that moved a pinned cell moved its pin.
                if let place = record.place, pins[record.id] != nil { pins[record.id] = (place.x, place.y) }
                record.place = nil
                cellStore[record.id] = record
            }
        case .linked(let records):
            // Only between cells in the room (as the room links them), so no link outlives its
            // cells whichever state a moment goes on from.
            for record in records where contains(record.link.source) && contains(record.link.target) {
                linkStore[Self.ends(record.link.source, record.link.target)] = record
            }
        case .unlinked(let ends):
            for end in ends { linkStore[Self.ends(end.source, end.target)] = nil }
        case .params(let next, _):
            parameters = next
        case .pinned(let id, let x, let y):
            if contains(id) { pins[id] = (x, y) }
        case .unpinned(let id):
            pins[id] = nil
        case .failover(_, _, let pinned, let went):
            let kept = Set(pinned)
            pins = pins.filter { kept.contains($0.key) }
            if let went { parameters = went }
        case .none, .membership, .relayed, .access, .restored:
            break
        }
        if event.kind.changesCellData { dataSeq = seq }
    }

    /// New cells' ids are above every other; an undo's cells come back with theirs, so the
    /// order (ascending, the engine's) is made again then.
    /// `data(index, id)`: the data of `ids[index]`, nil when it has none.
    private mutating func add(_ ids: [CellID], by client: String?, data: (Int, CellID) -> CellRecordData?) {
        // Cells an undo brings back were removed: they and their old links go now (the undo
        // links them again after).
        if !removed.isEmpty, ids.contains(where: removed.contains) { compact() }
        let last = cellStore.keys.last ?? 0
        for (index, id) in ids.enumerated() {
            cellStore[id] = data(index, id) ?? CellRecordData(id: id, data: CellData(), radius: nil)
            if let client { owners[id] = client }
            nextID = max(nextID, id + 1)
        }
        if let first = ids.min(), first < last { cellStore.sort { $0.key < $1.key } }
    }

    private mutating func remove(_ ids: [CellID]) {
        guard !ids.isEmpty else { return }
        if ids.count >= cellStore.count - removed.count, Set(ids.lazy.filter(contains)).count == cellStore.count - removed.count {
            // Every cell goes (a clear, or the removal of all): the stores are emptied at once,
            // not marked cell by cell and compacted after (a re-import's clear took a third of
            // its moment: 10k cells marked, then 20k cells and 40k links filtered).
            cellStore.removeAll(keepingCapacity: true)
            linkStore.removeAll(keepingCapacity: true)
            removed = []
            pins = [:]
            owners = [:]
            return
        }
        for id in ids {
            pins[id] = nil
            owners[id] = nil
        }
        for id in ids where cellStore[id] != nil { removed.insert(id) }
    }

    /// Each cell's position at the moment: its pin, else the keyframe's (`keyframe`, the
    /// nearest at or before the moment), else the first keyframe after that shows it (`later`,
    /// oldest first: a cell added since), else the checkpoint's, else the origin.
    public func placed(keyframe: Keyframe?, later: [Keyframe]) -> [(id: CellID, x: Double, y: Double)] {
        var placed: [(id: CellID, x: Double, y: Double)] = []
        placed.reserveCapacity(cellStore.count - removed.count)
        var missing: [Int] = []
        // The cells, the keyframe's and the pinned in ascending id order: one pass over them,
        // no table.
        let frame = keyframe.map { ($0.ids, $0.decoder) }
        var cursor = 0
        let pinned = pins.keys.sorted()
        var pinCursor = 0
        forEachCellID { id in
            while pinCursor < pinned.count && pinned[pinCursor] < id { pinCursor += 1 }
            if pinCursor < pinned.count && pinned[pinCursor] == id, let pin = pins[id] {
                placed.append((id, pin.x, pin.y))
                return
            }
            if let (ids, decode) = frame {
                while cursor < ids.count && ids[cursor] < id { cursor += 1 }
                if cursor < ids.count && ids[cursor] == id {
                    let position = decode(cursor)
                    placed.append((id, position.x, position.y))
                    return
                }
            }
            if let position = positions[id], keyframe == nil || keyframe!.at < origin.at {
                placed.append((id, position.x, position.y))
                return
            }
            missing.append(placed.count)
            placed.append((id, positions[id]?.x ?? 0, positions[id]?.y ?? 0))
        }
        // Cells added since the keyframe: where a later one first shows them.
        for frame in later where !missing.isEmpty {
            let found = frame.positions()
            missing.removeAll { index in
                guard let position = found[placed[index].id] else { return false }
                placed[index] = (placed[index].id, position.x, position.y)
                return true
            }
        }
        return placed
    }

    /// The layout it describes, positioned by `placed`, for a restore: ids above `floor`
    /// (the room's next id now) are never handed out again.
    public func snapshot(placed: [(id: CellID, x: Double, y: Double)], floor: CellID) -> SavedState {
        let cells = self.cells
        let records = placed.map { cell in
            CellRecord(id: cell.id, x: cell.x, y: cell.y, pinned: pins[cell.id] != nil, radius: cells[cell.id]?.radius)
        }
        var catalog = CellCatalog()
        for (id, record) in cells where !record.data.isEmpty { catalog[id] = record.data }
        let links = self.links
        for (ends, record) in links where record.attrs != nil { catalog[link: ends.source, ends.target] = record.attrs }
        var ownership = Ownership()
        for id in cells.keys {
            if let owner = owners[id] { ownership.record(id, by: owner) }
        }
        let layout = LayoutSnapshot(parameters: parameters, nextID: max(nextID, floor), cells: records,
                                    links: links.values.map(\.link))
        return SavedState(layout: layout, reservation: max(nextID, floor), settled: settled, catalog: catalog, owners: ownership.runs)
    }

    static func ends(_ a: CellID, _ b: CellID) -> LinkEnds { LinkEnds(source: min(a, b), target: max(a, b)) }
}
