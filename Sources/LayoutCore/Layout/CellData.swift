import ForceLayout

/// What a cell says about the item it stands for, beside its place and size (the radius is
/// the engine's: `Simulation.radius(of:)`). Every field is optional; a cell with none is an
/// anonymous dot, as cells were before they carried data.
public struct CellData: Equatable, Sendable {
    /// At most `labelLimit` code points, no control characters.
    public var label: String?
    /// `#rrggbb`, lower case.
    public var color: String?
    /// At most `groupLimit` code points, no control characters.
    public var group: String?
    /// Its id in the user's data.
    public var key: CellKey?
    /// Its other attributes in the user's data.
    public var attrs: Attrs?

    public static let labelLimit = 80
    public static let groupLimit = 40

    public init(label: String? = nil, color: String? = nil, group: String? = nil, key: CellKey? = nil, attrs: Attrs? = nil) {
        self.label = label
        self.color = color
        self.group = group
        self.key = key
        self.attrs = attrs
    }

    public var isEmpty: Bool { label == nil && color == nil && group == nil && key == nil && attrs == nil }

    /// Why `text` cannot be a label or group of at most `limit` code points; nil when it can.
    static func problem(text: String, limit: Int) -> String? {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            if count > limit { return "at most \(limit) characters (code points)" }
            if scalar.properties.generalCategory == .control { return "no control characters" }
        }
        return nil
    }

    /// `#rrggbb` (either case) in lower case; nil when `text` is not one.
    package static func color(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#"),
              bytes.dropFirst().allSatisfy({ isHexDigit($0) }) else { return nil }
        return text.lowercased()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}

/// A cell's data as the wire and the files carry it: id, data and own radius; in an `updated`
/// event, also where the `update` put the cell (`place`: a pinned cell's pin moved there).
public struct CellRecordData: Equatable, Sendable {
    public struct Place: Equatable, Sendable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    public var id: CellID
    public var data: CellData
    public var radius: Double?
    /// Where an `update` moved the cell (its `updated` event only; nil everywhere else).
    public var place: Place?

    public init(id: CellID, data: CellData, radius: Double?) {
        self.id = id
        self.data = data
        self.radius = radius
    }
}

/// The data of the cells that have any, by id, and the attributes of the links that have
/// any (the engine's `Link` is physics only). Pure.
public struct CellCatalog: Equatable, Sendable {
    public private(set) var data: [CellID: CellData] = [:]
    public private(set) var links = LinkAttributes()

    public init(_ data: [CellID: CellData] = [:], links: LinkAttributes = LinkAttributes()) {
        self.data = data.filter { !$0.value.isEmpty }
        self.links = links
    }

    public subscript(id: CellID) -> CellData {
        get { data[id] ?? CellData() }
        set { data[id] = newValue.isEmpty ? nil : newValue }
    }

    /// Removed cells' data goes, and the attributes of their links (the engine drops the links).
    public mutating func remove(_ ids: [CellID]) {
        links.remove(cells: ids)
        guard !data.isEmpty else { return }
        for id in ids { data[id] = nil }
    }

    public mutating func removeAll() {
        data.removeAll()
        links = LinkAttributes()
    }

    /// The attributes of the link between `a` and `b` (either way round).
    public subscript(link a: CellID, _ b: CellID) -> Attrs? {
        get { links[a, b] }
        set { links[a, b] = newValue }
    }
}
