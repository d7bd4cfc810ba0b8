/// What the graph model keeps between steps (`Simulation+Graph.swift`).
struct GraphState {
    /// A link batch counts toward a new multilevel layout only from this many links (a
    /// hand-made link refines where it is), and a new layout is made once the links of such
    /// batches since the last reach `planShare` of the links then, and `planLinks`.
    static let batchLinks = 16
    static let planLinks = 16
    static let planShare = 0.1
    /// A change heats the step to at least this share of the edge length.
    static let reheatShare = 0.25
    /// A multilevel layout starts once this many steps passed with no large link batch: an
    /// import's batches come faster than that, so its graph is laid out once, whole, when
    /// the last batch is in (a layout of a part would fold when the rest arrived).
    static let quietSteps = 3

    /// The cells' graph and components, for the membership and links version they were made for.
    var finest: (version: Int, links: Int, graph: WeightedGraph, components: Components)?
    /// The multilevel layout under way, if any.
    var plan: MultilevelLayout?
    /// The finest level's step length (nil: a fresh start).
    var step: StepLength?
    /// Links when the last multilevel layout was made, and those of large batches since.
    var linksAtPlan = 0
    var linksSincePlan = 0
    /// A multilevel layout is to be made once `quiet` reaches `quietSteps`.
    var planWanted = false
    /// Steps since the last large link batch.
    var quiet = 0
    /// Components are packed once more when the layout first comes to rest after a
    /// multilevel layout (they grow a little while they refine).
    var packAtRest = false
    /// Whether the cells were laid out as a graph (a new multilevel layout then keeps its shape).
    var drawn = false
    var scratch: GraphScratch

    init(seed: UInt64) {
        scratch = GraphScratch(rng: SeededRandom(seed: splitMix64(seed ^ 0x67726170)))
    }

    /// `count` links were made in one batch, with `total` links now.
    mutating func linked(_ count: Int, total: Int) {
        guard count >= Self.batchLinks else { return }
        linksSincePlan += count
        quiet = 0
        // While a layout is still unfolding, every large batch makes it start again (once
        // the batches stop): an unfolding layout of part of a graph is not yet a drawing.
        if plan != nil || linksSincePlan >= Swift.max(Self.planLinks, Int(Self.planShare * Double(total - linksSincePlan))) {
            planWanted = true
        }
    }
}
