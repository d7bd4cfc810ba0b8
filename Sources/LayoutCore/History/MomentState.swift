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
    public private(set) var links: OrderedDictionary<LinkEnds, LinkRecord>
    public private(set) var pins: [CellID: (x: Double, y: Double)]
    /// Who added each cell (cells the checkpoint's runs do not name: nobody).
    public private(set) var owners: [CellID: String]
    /// The checkpoint's positions: where a cell no keyframe shows was.
    public private(set) var positions: [CellID: (x: Double, y: Double)]
    /// The last event applied, and the last that changed cells, data or links.
    public private(set) var seq: UInt64
    public private(set) var dataSeq: UInt64
    public private(set) var tick: Int
    /// Whether the layout was at rest then.
    public private(set) var settled: Bool

    public init(checkpoint: Checkpoint) {
        let state = checkpoint.state
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
        links = [:]
        for link in state.layout.links {
            links[Self.ends(link.source, link.target)] = LinkRecord(link, attrs: state.catalog[link: link.source, link.target])
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
            for id in ids {
                cells[id] = given[id] ?? CellRecordData(id: id, data: CellData(), radius: nil)
                if let by = event.by { owners[id] = by }
                nextID = max(nextID, id + 1)
            }
            // Added ids are above every other: the order stays ascending.
            dataSeq = seq
        case .cells(let ids) where event.kind == .added:
            for id in ids {
                cells[id] = CellRecordData(id: id, data: CellData(), radius: nil)
                if let by = event.by { owners[id] = by }
                nextID = max(nextID, id + 1)
            }
            dataSeq = seq
        case .cells(let ids):
            remove(ids)
        case .updated(let records):
            for record in records where cells[record.id] != nil { cells[record.id] = record }
            dataSeq = seq
        case .linked(let records):
            for record in records { links[Self.ends(record.link.source, record.link.target)] = record }
            dataSeq = seq
        case .unlinked(let ends):
            for end in ends { links[Self.ends(end.source, end.target)] = nil }
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

    private mutating func remove(_ ids: [CellID]) {
        guard !ids.isEmpty else { return }
        // A few cells (a `remove`): each is looked for among them (a few comparisons, no
        // hashing) and taken out of the ordered dictionaries on its own; many (a `clear`): one
        // pass over each, which rebuilds its hash table (taking out one key at a time moves the
        // ones after it: a `cleared` of 10k cells took a second to replay).
        let few = ids.count <= Self.fewCells
        let gone = few ? [] : Set(ids)
        func isGone(_ id: CellID) -> Bool { few ? ids.contains(id) : gone.contains(id) }
        if few {
            for id in ids { _ = cells.removeValue(forKey: id) }
        } else {
            cells.removeAll { gone.contains($0.key) }
        }
        for id in ids {
            pins[id] = nil
            owners[id] = nil
        }
        let cut = links.keys.filter { isGone($0.source) || isGone($0.target) }
        if cut.count <= Self.fewCells {
            for ends in cut { _ = links.removeValue(forKey: ends) }
        } else {
            links.removeAll { isGone($0.key.source) || isGone($0.key.target) }
        }
        dataSeq = seq
    }

    /// Up to this many cells or links are taken out one by one (`remove`).
    private static let fewCells = 16

    /// Each cell's position at the moment: its pin, else the keyframe's (`keyframe`, the
    /// nearest at or before the moment), else the first keyframe after that shows it (`later`,
    /// oldest first: a cell added since), else the checkpoint's, else the origin.
    public func placed(keyframe: Keyframe?, later: [Keyframe]) -> [(id: CellID, x: Double, y: Double)] {
        var known = keyframe?.positions() ?? [:]
        var missing = cells.keys.filter { pins[$0] == nil && known[$0] == nil && positions[$0] == nil }
        for frame in later where !missing.isEmpty {
            let found = frame.positions()
            missing.removeAll { id in
                guard let position = found[id] else { return false }
                known[id] = position
                return true
            }
        }
        return cells.keys.map { id in
            let position = pins[id] ?? known[id] ?? positions[id] ?? (0, 0)
            return (id, position.x, position.y)
        }
    }

    /// The layout it describes, positioned by `placed`, for a restore: ids above `floor`
    /// (the room's next id now) are never handed out again.
    public func snapshot(placed: [(id: CellID, x: Double, y: Double)], floor: CellID) -> SavedState {
        let records = placed.map { cell in
            CellRecord(id: cell.id, x: cell.x, y: cell.y, pinned: pins[cell.id] != nil, radius: cells[cell.id]?.radius)
        }
        var catalog = CellCatalog()
        for (id, record) in cells where !record.data.isEmpty { catalog[id] = record.data }
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
