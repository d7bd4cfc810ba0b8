/// A link between two cells: a spring with rest length `distance`, as d3-force's
/// `forceLink` (`LinkForce`). Unordered for identity: (a, b) and (b, a) are the same link.
public struct Link: Codable, Equatable, Sendable {
    /// d3-force's default rest length, the default of `Parameters.edgeLength`, and what every
    /// link without a distance of its own was stored with before links could have none (state
    /// files up to version 5 read it back as none: `StateFile`).
    public static let defaultDistance = 30.0

    public var source: CellID
    public var target: CellID
    /// Its own rest length, as its client gave it; nil: the room's `edgeLength`, whatever it
    /// is now.
    public var distance: Double?
    /// The spring's strength; nil: 1 / min(degree(source), degree(target)), d3's default,
    /// which keeps a hub from being pulled apart by its many links.
    public var strength: Double?

    public init(source: CellID, target: CellID, distance: Double? = nil, strength: Double? = nil) {
        self.source = source
        self.target = target
        self.distance = distance
        self.strength = strength
    }

    /// The same key whichever end is the source.
    var key: LinkKey { LinkKey(source, target) }
}

/// An unordered pair of cells.
struct LinkKey: Hashable, Sendable {
    let low: CellID
    let high: CellID

    init(_ a: CellID, _ b: CellID) {
        low = Swift.min(a, b)
        high = Swift.max(a, b)
    }
}
