import ForceLayout

/// A room at one tick, as an export writes it: every cell with its position and data, every
/// link. Taken on the room's stepping thread (or from its state file), so it is consistent.
public struct LayoutExport: Sendable {
    public struct Cell: Sendable {
        public var id: CellID
        public var x: Double
        public var y: Double
        public var pinned: Bool
        public var data: CellData
        /// Its own radius; nil: the default.
        public var radius: Double?
    }

    public var room: String
    public var tick: Int
    /// The radius of a cell without its own (half of `cellSize`).
    public var defaultRadius: Double
    public var cells: [Cell]
    public var links: [Link]
    /// The links' attributes (by their ends).
    public var linkAttrs = LinkAttributes()
    /// Who added which cells (runs ascending; cells of none have no owner): the drawing's
    /// colour of a cell with neither colour nor group.
    public var owners: [Ownership.Run] = []

    public enum Format: String, Sendable, CaseIterable {
        case json, gexf, svg

        package var contentType: String {
            switch self {
            case .json: "application/json"
            case .gexf: "application/gexf+xml"
            case .svg: "image/svg+xml"
            }
        }
    }

    public func encoded(as format: Format) -> [UInt8] {
        switch format {
        case .json: NodeLinkJSON.encode(self)
        case .gexf: GEXF.encode(self)
        case .svg: SVGDrawing.encode(self)
        }
    }
}

extension LayoutExport {
    package init(room: String, tick: Int, snapshot: LayoutSnapshot, catalog: CellCatalog) {
        self.init(room: room, tick: tick, defaultRadius: snapshot.parameters.cellSize / 2,
                  cells: snapshot.cells.map { cell in
                      Cell(id: cell.id, x: cell.x, y: cell.y, pinned: cell.pinned, data: catalog[cell.id], radius: cell.radius)
                  },
                  links: snapshot.links, linkAttrs: catalog.links)
    }

    /// Each cell's id in the exports, by position in `cells`: its key when no other cell has
    /// the same key, else its cell id as a number, unless a key already is that number: then
    /// `"cell N"` (with `'` added until no key is that string). Every node has an id of its own.
    func nodeIDs() -> [CellKey] {
        var counts: [CellKey: Int] = [:]
        for cell in cells { if let key = cell.data.key { counts[key, default: 0] += 1 } }
        return cells.map { cell in
            if let key = cell.data.key, counts[key] == 1 { return key }
            let number = CellKey.number(Double(cell.id))
            if counts[number] == nil { return number }
            var text = "cell \(cell.id)"
            while counts[.string(text)] != nil { text += "'" }
            return .string(text)
        }
    }

    /// The client that added cell `id`, nil when none did (`owners`).
    func owner(of id: CellID) -> String? {
        var lo = 0, hi = owners.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if id < owners[mid].first { hi = mid - 1 } else if id > owners[mid].last { lo = mid + 1 } else { return owners[mid].client }
        }
        return nil
    }

    /// `nodeIDs` by cell id, for the links' ends.
    func nodeIDsByCell() -> [CellID: CellKey] {
        Dictionary(uniqueKeysWithValues: zip(cells.map(\.id), nodeIDs()))
    }
}

extension LayoutState {
    /// The layout as it is now, for an export.
    public func export(room: String) -> LayoutExport {
        var export = LayoutExport(room: room, tick: simulation.tick, snapshot: simulation.snapshot(), catalog: catalog)
        export.owners = ownership.runs
        return export
    }
}
