/// The graph model's step length, adapted as in Hu 2005 (Algorithm 1, "adaptive cooling"):
/// after five steps in a row that lowered the energy (the sum of squared forces) it grows
/// by 1/`cooling` (up to where it started); a step that did not lower it cuts it by `cooling`. So a layout far from
/// rest travels fast and one near rest slows down until it converges, instead of swirling
/// as `p += F` does. Pure.
struct StepLength: Sendable, Equatable {
    /// Coarse levels are cheap: they cool slowly (graph-tool's 0.95 would leave more of
    /// their folds for the finer levels); the cells cool as graph-tool does.
    static let coarseCooling = 0.97
    static let finestCooling = 0.95
    static let runToHeat = 5
    /// After this many steps since the start or the last change, the step only cools: every
    /// layout comes to rest, even one whose energy keeps falling by a hair.
    static let heatingLimit = 500

    let cooling: Double
    private(set) var length: Double
    private var energy = Double.infinity
    private var progress = 0
    private var updates = 0
    /// The most it may grow to (the step it started at): heating only undoes cooling.
    private var ceiling: Double

    init(_ length: Double, cooling: Double) {
        self.length = length
        self.cooling = cooling
        ceiling = length
    }

    /// The energy after a step taken with `length`.
    mutating func update(energy newEnergy: Double) {
        updates += 1
        if newEnergy < energy {
            progress += 1
            if progress >= Self.runToHeat && updates < Self.heatingLimit {
                progress = 0
                length = Swift.min(ceiling, length / cooling)
            }
        } else {
            progress = 0
            length *= cooling
        }
        energy = newEnergy
    }

    /// Something changed: the step is at least `length` again (and may grow to it), and the
    /// energy seen so far no longer compares.
    mutating func reheat(to length: Double) {
        self.length = Swift.max(self.length, length)
        ceiling = Swift.max(ceiling, length)
        energy = .infinity
        progress = 0
        updates = 0
    }
}
