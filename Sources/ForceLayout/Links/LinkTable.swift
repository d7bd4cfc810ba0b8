/// The links of a layout, by cell id, and what the force loop reads, by cell index: each
/// link's ends, rest length and strength, and every cell's links in one array
/// (`incident[offsets[i] ..< offsets[i + 1]]`), so a cell's pull is summed by whoever
/// computes that cell, on any core, in the same order. The index form is rebuilt when the
/// links or the cells change (`invalidate`). Pure.
struct LinkTable {
    private(set) var links: [Link] = []
    private var position: [LinkKey: Int] = [:]
    private var prepared: PreparedLinks?
    /// Counts every change of the links (the graph model rebuilds its graph on a new one).
    private(set) var version = 0
    /// How many links each linked cell has.
    private(set) var degrees: [CellID: Int] = [:]

    var isEmpty: Bool { links.isEmpty }
    var count: Int { links.count }

    func contains(_ a: CellID, _ b: CellID) -> Bool { position[LinkKey(a, b)] != nil }

    /// Appends links already checked (ends exist, not a loop, not present).
    mutating func append(_ new: [Link]) {
        for link in new {
            position[link.key] = links.count
            links.append(link)
            degrees[link.source, default: 0] += 1
            degrees[link.target, default: 0] += 1
        }
        prepared = nil
        version += 1
    }

    func degree(of cell: CellID) -> Int { degrees[cell] ?? 0 }

    /// Removes the links between these pairs (present ones; the caller checked).
    mutating func remove(_ keys: Set<LinkKey>) {
        guard !keys.isEmpty else { return }
        links.removeAll { keys.contains($0.key) }
        reindex()
    }

    /// Removes every link that touches one of `cells`; returns how many.
    @discardableResult
    mutating func remove(touching cells: Set<CellID>) -> Int {
        let before = links.count
        links.removeAll { cells.contains($0.source) || cells.contains($0.target) }
        if links.count != before { reindex() }
        return before - links.count
    }

    /// The cells changed: their indices are no longer those of `prepared`.
    mutating func invalidate() { prepared = nil }

    /// The index form for cells at `index` (id → position), built if needed.
    mutating func prepare(cellCount: Int, index: (CellID) -> Int?) -> PreparedLinks {
        if let prepared { return prepared }
        let built = PreparedLinks(links, cellCount: cellCount, index: index)
        prepared = built
        return built
    }

    private mutating func reindex() {
        position = [:]
        degrees = [:]
        for (k, link) in links.enumerated() {
            position[link.key] = k
            degrees[link.source, default: 0] += 1
            degrees[link.target, default: 0] += 1
        }
        prepared = nil
        version += 1
    }
}

/// Links by cell index, for `LinkForce`.
struct PreparedLinks: Sendable {
    let source: [Int32]
    let target: [Int32]
    /// Each link's own rest length; NaN: none (the room's `edgeLength`, read each step, so a
    /// change of it needs no rebuild).
    let distance: [Double]
    /// Each link's own strength, or d3's default (before `linkStrength`, read each step).
    let strength: [Double]
    /// Cell i's links are `incident[offsets[i] ..< offsets[i + 1]]`, as link indices.
    let offsets: [Int32]
    let incident: [Int32]

    init(_ links: [Link], cellCount n: Int, index: (CellID) -> Int?) {
        var source: [Int32] = [], target: [Int32] = []
        source.reserveCapacity(links.count)
        target.reserveCapacity(links.count)
        var degree = [Int32](repeating: 0, count: n)
        for link in links {
            // Every link's ends are cells: links are checked when made and dropped with a cell.
            let a = index(link.source)!, b = index(link.target)!
            source.append(Int32(a))
            target.append(Int32(b))
            degree[a] += 1
            degree[b] += 1
        }
        self.source = source
        self.target = target
        distance = links.map { $0.distance ?? .nan }
        strength = links.indices.map { k in
            links[k].strength ?? 1 / Double(Swift.min(degree[Int(source[k])], degree[Int(target[k])]))
        }
        var offsets = [Int32](repeating: 0, count: n + 1)
        for i in 0..<n { offsets[i + 1] = offsets[i] + degree[i] }
        var next = Array(offsets.dropLast())
        var incident = [Int32](repeating: 0, count: 2 * links.count)
        for k in links.indices {
            for end in [Int(source[k]), Int(target[k])] {
                incident[Int(next[end])] = Int32(k)
                next[end] += 1
            }
        }
        self.offsets = offsets
        self.incident = incident
    }
}
