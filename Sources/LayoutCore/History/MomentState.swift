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
    public private(set) var cells: OrderedDictionary<CellID, CellRecordData>
    /// In the order they were made, by their ends (smaller id first).
    public var links: OrderedDictionary<LinkEnds, LinkRecord> {
        guard !unpruned.isEmpty else { return linkStore }
        return linkStore.filter { !unpruned.contains($0.key.source) && !unpruned.contains($0.key.target) }
    }
    /// The links, and those of cells removed since (`unpruned`): removing a few cells would
    /// otherwise look through every link at each `removed` (three quarters of a scrub's time in
    /// a 10k-cell room with 20k links). Those links are dropped when `links` is read, all at
    /// once, or when an undo brings one of the cells back (`add`).
    private var linkStore: OrderedDictionary<LinkEnds, LinkRecord>
    private var unpruned: Set<CellID> = []
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
        cells = [:]
        pins = [:]
        positions = [:]
        owners = [:]
        cells.reserveCapacity(state.layout.cells.count)
        for cell in state.layout.cells {
            cells[cell.id] = CellRecordData(id: cell.id, data: state.catalog[cell.id], radius: cell.radius)
            positions[cell.id] = (cell.x, cell.y)
            if cell.pinned { pins[cell.id] = (cell.x, cell.y) }
        }
        linkStore = [:]
        linkStore.reserveCapacity(state.layout.links.count)
        for link in state.layout.links {
            linkStore[Self.ends(link.source, link.target)] = LinkRecord(link, attrs: state.catalog[link: link.source, link.target])
        }
        for run in state.owners {
            for id in run.first...run.last where cells[id] != nil { owners[id] = run.client }
        }
        seq = checkpoint.seq
        dataSeq = checkpoint.seq
        tick = checkpoint.tick
        settled = state.settled
    }

    /// The room after `envelope`'s event (one that changes nothing of this kept no record).
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
        case .added(let ids, let data):
            let given = Dictionary(data.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            add(ids, by: event.by) { given[$0] }
        case .cells(let ids) where event.kind == .added:
            add(ids, by: event.by) { _ in nil }
        case .cells(let ids):
            remove(ids)
        case .updated(let records):
            for record in records where cells[record.id] != nil { cells[record.id] = record }
            dataSeq = seq
        case .linked(let records):
            for record in records { linkStore[Self.ends(record.link.source, record.link.target)] = record }
            dataSeq = seq
        case .unlinked(let ends):
            for end in ends { linkStore[Self.ends(end.source, end.target)] = nil }
            dataSeq = seq
        case .params(let next, _):
            parameters = next
        case .pinned(let id, let x, let y):
            if cells[id] != nil { pins[id] = (x, y) }
        case .unpinned(let id):
            pins[id] = nil
        case .failover(_, _, let pinned):
            let kept = Set(pinned)
            pins = pins.filter { kept.contains($0.key) }
        case .none, .membership, .relayed, .access, .restored:
            break
        }
    }

    /// New cells' ids are above every other; an undo's cells come back with theirs, so the
    /// order (ascending, the engine's) is made again then.
    private mutating func add(_ ids: [CellID], by client: String?, data: (CellID) -> CellRecordData?) {
        // Cells an undo brings back were removed: their old links are dropped now (the undo
        // links them again after), not when `links` is read.
        if !unpruned.isEmpty, ids.contains(where: unpruned.contains) {
            linkStore = links
            unpruned = []
        }
        let last = cells.keys.last ?? 0
        for id in ids {
            cells[id] = data(id) ?? CellRecordData(id: id, data: CellData(), radius: nil)
            if let client { owners[id] = client }
            nextID = max(nextID, id + 1)
        }
        if let first = ids.min(), first < last { cells.sort { $0.key < $1.key } }
        dataSeq = seq
    }

    private mutating func remove(_ ids: [CellID]) {
        guard !ids.isEmpty else { return }
        // A few cells (a `remove`) are taken out of the ordered dictionary one by one; many (a
        // `clear`) in one pass, which rebuilds its hash table (one by one, each moves the ones
        // after it: a `cleared` of 10k cells took a second to replay). Their links go when
        // `links` is read.
        if ids.count <= 16 {
            for id in ids { _ = cells.removeValue(forKey: id) }
        } else {
            let gone = Set(ids)
            cells.removeAll { gone.contains($0.key) }
        }
        for id in ids {
            pins[id] = nil
            owners[id] = nil
        }
        unpruned.formUnion(ids)
        dataSeq = seq
    }

    /// Each cell's position at the moment: its pin, else the keyframe's (`keyframe`, the
    /// nearest at or before the moment), else the first keyframe after that shows it (`later`,
    /// oldest first: a cell added since), else the checkpoint's, else the origin.
    public func placed(keyframe: Keyframe?, later: [Keyframe]) -> [(id: CellID, x: Double, y: Double)] {
        var placed: [(id: CellID, x: Double, y: Double)] = []
        placed.reserveCapacity(cells.count)
        var missing: [Int] = []
        // Both in ascending id order: one pass over the two, no table.
        let frame = keyframe.map { ($0.ids, $0.decoder) }
        var cursor = 0
        for id in cells.keys {
            if let pin = pins[id] {
                placed.append((id, pin.x, pin.y))
                continue
            }
            if let (ids, decode) = frame {
                while cursor < ids.count && ids[cursor] < id { cursor += 1 }
                if cursor < ids.count && ids[cursor] == id {
                    let position = decode(cursor)
                    placed.append((id, position.x, position.y))
                    continue
                }
            }
            if let position = positions[id], keyframe == nil || keyframe!.at < origin.at {
                placed.append((id, position.x, position.y))
                continue
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
        let records = placed.map { cell in
            CellRecord(id: cell.id, x: cell.x, y: cell.y, pinned: pins[cell.id] != nil, radius: cells[cell.id]?.radius)
        }
        var catalog = CellCatalog()
        for (id, record) in cells where !record.data.isEmpty { catalog[id] = record.data }
        let links = self.links
        for (ends, record) in links where record.attrs != nil { catalog[link: ends.source, ends.target] = record.attrs }
        var ownership = Ownership()
        for id in cells.keys {
            if let owner = owners[id] { ownership.record([id], by: owner) }
        }
        let layout = LayoutSnapshot(parameters: parameters, nextID: max(nextID, floor), cells: records,
                                    links: links.values.map(\.link))
        return SavedState(layout: layout, reservation: max(nextID, floor), settled: settled, catalog: catalog, owners: ownership.runs)
    }

    static func ends(_ a: CellID, _ b: CellID) -> LinkEnds { LinkEnds(source: min(a, b), target: max(a, b)) }
}
