import ForceLayout

/// The attributes of the links that have any, by their ends either way round, with each
/// cell's such links, so removing a cell drops its links' attributes without a scan. Pure.
public struct LinkAttributes: Equatable, Sendable {
    private var attrs: [LinkEnds: Attrs] = [:]
    private var neighbours: [CellID: Set<CellID>] = [:]

    public init() {}

    public var isEmpty: Bool { attrs.isEmpty }
    public var count: Int { attrs.count }

    public subscript(a: CellID, b: CellID) -> Attrs? {
        get { attrs[Self.ends(a, b)] }
        set {
            let ends = Self.ends(a, b)
            if let newValue {
                attrs[ends] = newValue
                neighbours[a, default: []].insert(b)
                neighbours[b, default: []].insert(a)
            } else if attrs.removeValue(forKey: ends) != nil {
                drop(b, from: a)
                drop(a, from: b)
            }
        }
    }

    mutating func remove(cells ids: [CellID]) {
        guard !attrs.isEmpty else { return }
        for id in ids {
            guard let others = neighbours.removeValue(forKey: id) else { continue }
            for other in others {
                attrs[Self.ends(id, other)] = nil
                drop(id, from: other)
            }
        }
    }

    private mutating func drop(_ other: CellID, from id: CellID) {
        neighbours[id]?.remove(other)
        if neighbours[id]?.isEmpty == true { neighbours[id] = nil }
    }

    private static func ends(_ a: CellID, _ b: CellID) -> LinkEnds { LinkEnds(source: min(a, b), target: max(a, b)) }
}

/// A link with its attributes, as `link` brings it and `linked` tells of it.
public struct LinkRecord: Equatable, Sendable {
    public var link: Link
    public var attrs: Attrs?

    public init(_ link: Link, attrs: Attrs? = nil) {
        self.link = link
        self.attrs = attrs
    }
}
