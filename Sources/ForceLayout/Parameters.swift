/// The live physics parameters. Ranges (validated by the caller, not here):
/// stiffness (0, 1], charge [0, 1000], cellSize [1, 200], threshold [0, 1e6],
/// tickRate [1, 120], theta [0, 2].
public struct Parameters: Codable, Equatable, Sendable {
    /// Hooke constant of the spring that ties every cell to the center.
    public var stiffness: Double = 0.02
    /// Equal made-up charge of every cell; the repulsion is charge^3 / r^2.
    public var charge: Double = 10
    /// Drawn diameter of a cell, in world units.
    public var cellSize: Double = 20
    /// The layout is settled when the largest movement of a step is below this (a cell whose
    /// damping predates the last change counts by its undamped step, see `Rest`).
    public var threshold: Double = 0.3
    /// Steps per second; used by whoever drives `step()`, not by the engine.
    public var tickRate: Double = 20
    /// Barnes-Hut opening angle: 0 is the exact pair sum; larger is faster and coarser.
    public var theta: Double = 0.9
    /// Cells of `cellSize` never overlap: each step ends by pushing overlapping pairs apart.
    public var collide: Bool = false
    /// Whether the driver should stop stepping; the engine itself ignores it.
    public var paused: Bool = false

    public init() {}

    public static let defaults = Parameters()

    /// Whether cells move alike under both: equal but for the values a step does not move
    /// cells by (`threshold`, `tickRate`, `paused`). Values added later count by default.
    func movesCellsLike(_ other: Parameters) -> Bool {
        var a = self, b = other
        (a.threshold, a.tickRate, a.paused) = (b.threshold, b.tickRate, b.paused)
        return a == b
    }

    private enum CodingKeys: String, CodingKey {
        case stiffness, charge, cellSize, threshold, tickRate, theta, collide, paused
    }

    /// Missing keys take their defaults, so a partial or older document still decodes.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Parameters.defaults
        stiffness = try c.decodeIfPresent(Double.self, forKey: .stiffness) ?? d.stiffness
        charge = try c.decodeIfPresent(Double.self, forKey: .charge) ?? d.charge
        cellSize = try c.decodeIfPresent(Double.self, forKey: .cellSize) ?? d.cellSize
        threshold = try c.decodeIfPresent(Double.self, forKey: .threshold) ?? d.threshold
        tickRate = try c.decodeIfPresent(Double.self, forKey: .tickRate) ?? d.tickRate
        theta = try c.decodeIfPresent(Double.self, forKey: .theta) ?? d.theta
        collide = try c.decodeIfPresent(Bool.self, forKey: .collide) ?? d.collide
        paused = try c.decodeIfPresent(Bool.self, forKey: .paused) ?? d.paused
    }
}
