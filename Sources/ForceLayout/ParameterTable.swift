extension Parameters {
    /// Every parameter, once, in wire order (the order `params` objects are written in).
    /// The protocol's decoder and encoder, `hello.paramSpecs`, the state file, the engine's
    /// sanitising and `Parameters()` all read this table; nothing else lists the parameters.
    public static let table: [ParameterSpec] = [
        .number("stiffness", \.stiffness, default: 0.02, in: NumberRange(0...1, lowerExclusive: true), step: 0.001,
                physics: .cells, label: "Stiffness", "Hooke constant of the spring that ties every cell to the center (0, 0)."),
        .number("charge", \.charge, default: 10, in: NumberRange(0...1000), step: 0.5, physics: .cells,
                label: "Charge", "Equal made-up charge of every cell; two cells repel with charge³ / r²."),
        .number("cellSize", \.cellSize, default: 20, in: NumberRange(1...200), step: 1,
                label: "Cell size", "Drawn diameter of a cell, in world units."),
        .number("threshold", \.threshold, default: 0.3, in: NumberRange(0...1e6), step: 0.01, control: .field,
                movesCells: false, label: "Threshold", "The layout settles once no cell moves this far or more in a step."),
        .number("tickRate", \.tickRate, default: 20, in: NumberRange(1...120), step: 1, movesCells: false,
                label: "Frames/s", "Frames per second while the layout moves; between two, it steps as often as the server allows."),
        .number("theta", \.theta, default: 0.9, in: NumberRange(0...2), step: 0.05,
                label: "Theta", "Barnes-Hut opening angle: 0 is the exact pair sum; larger is faster and coarser."),
        .bool("collide", \.collide, default: false, physics: .cells,
              label: "Collide", "Cells of cellSize never overlap: each step ends by pushing overlapping pairs apart."),
        .bool("paused", \.paused, default: false, movesCells: false,
              label: "Paused", "Stops stepping; the layout stays as it is until resumed."),
        .choice("model", \.model, default: LayoutModel.auto.rawValue, options: LayoutModel.allCases.map(\.rawValue),
                label: "Model", "auto: the graph model when the room has links, else the cells model; cells: the article's center spring and charges; graph: sfdp's spring-electrical model, laid out multilevel."),
        .number("edgeLength", \.edgeLength, default: 30, in: NumberRange(1...1000), step: 1,
                label: "Link length", "The natural length of a link: linked cells settle about this far apart. Cells model: the rest length of every link without a distance of its own; graph model: sfdp's K."),
        .number("linkStrength", \.linkStrength, default: 1, in: NumberRange(0...5), step: 0.05,
                label: "Link strength", "Multiplies every link's pull: stronger links hold linked cells closer and stiffer (cells model: each link's strength, its own or 1 / min(degree); graph model: the springs' attraction)."),
    ]

    /// The row of the parameter stored at `path`; every stored property has one.
    public static func spec(for path: PartialKeyPath<Parameters>) -> ParameterSpec {
        guard let spec = table.first(where: { $0.keyPath == path }) else {
            fatalError("Parameters.table has no row for \(path)")
        }
        return spec
    }
}

extension ParameterSpec {
    static func number(_ name: String, _ path: WritableKeyPath<Parameters, Double> & Sendable, default value: Double,
                       in range: NumberRange, step: Double, control: Control = .slider, movesCells: Bool = true,
                       physics: LayoutModel? = nil, label: String, _ description: String) -> ParameterSpec {
        ParameterSpec(name: name, label: label, description: description, control: control, movesCells: movesCells,
                      physics: physics, storage: .number(path, default: value, range: range, step: step))
    }

    static func choice(_ name: String, _ path: WritableKeyPath<Parameters, String> & Sendable, default value: String,
                       options: [String], label: String, _ description: String) -> ParameterSpec {
        ParameterSpec(name: name, label: label, description: description, control: .menu, movesCells: true,
                      physics: nil, storage: .choice(path, default: value, options: options))
    }

    static func bool(_ name: String, _ path: WritableKeyPath<Parameters, Bool> & Sendable, default value: Bool,
                     movesCells: Bool = true, physics: LayoutModel? = nil, label: String, _ description: String) -> ParameterSpec {
        ParameterSpec(name: name, label: label, description: description, control: .toggle, movesCells: movesCells,
                      physics: physics, storage: .bool(path, default: value))
    }
}
