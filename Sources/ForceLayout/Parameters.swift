/// The live physics parameters. What each means, its range and its default are in
/// `Parameters.table`: a new parameter is a stored property here and a row there.
public struct Parameters: Equatable, Sendable {
    public var stiffness: Double = initial(\.stiffness)
    public var charge: Double = initial(\.charge)
    public var cellSize: Double = initial(\.cellSize)
    public var threshold: Double = initial(\.threshold)
    /// Used by whoever drives `step()`, not by the engine.
    public var tickRate: Double = initial(\.tickRate)
    public var theta: Double = initial(\.theta)
    public var collide: Bool = initial(\.collide)
    /// Whether the driver should stop stepping; the engine itself ignores it.
    public var paused: Bool = initial(\.paused)
    /// A `LayoutModel`'s name (`layoutModel` reads it).
    public var model: String = initial(\.model)
    /// A link's natural length, in both models (the cells model's links without a
    /// `distance` of their own rest at it).
    public var edgeLength: Double = initial(\.edgeLength)
    /// Multiplies every link's pull, in both models.
    public var linkStrength: Double = initial(\.linkStrength)

    /// Every parameter at its default.
    public init() {}

    public static let defaults = Parameters()

    private static func initial<Value>(_ path: WritableKeyPath<Parameters, Value>) -> Value {
        switch spec(for: path).defaultValue {
        case .number(let value as Value), .bool(let value as Value), .choice(let value as Value): value
        default: fatalError("Parameters.table gives \(path) a default of another kind")
        }
    }

    /// The model named by `model` (the default if it names none; `sanitized` sees to that).
    public var layoutModel: LayoutModel { LayoutModel(rawValue: model) ?? .auto }

    /// Every value in its table range: out of range, the nearest bound; NaN, the default.
    /// What `Simulation` is given passes through this, so the physics trusts its values.
    public var sanitized: Parameters {
        var result = self
        for spec in Self.table {
            spec.set(spec.sanitized(spec.value(in: self)), in: &result)
        }
        return result
    }

    /// Whether cells move alike under both: equal but for the values a step does not move
    /// cells by (`ParameterSpec.movesCells`).
    func movesCellsLike(_ other: Parameters) -> Bool {
        Self.table.allSatisfy { !$0.movesCells || $0.value(in: self) == $0.value(in: other) }
    }
}
