/// The connected components of a level, each one's nodes in one run of `members`
/// (`members[starts[c] ..< starts[c + 1]]`, ascending). The graph model lays each component
/// out on its own (repulsion acts within a component) and packs them side by side
/// (`ComponentPacking`), as Graphviz's sfdp packs disconnected graphs.
struct Components: Sendable {
    let of: [Int32]
    let members: [Int32]
    let starts: [Int32]

    var count: Int { starts.count - 1 }

    init(_ graph: WeightedGraph) {
        let (of, count) = graph.components()
        self.init(of: of, count: count)
    }

    /// From each node's component number (0 ..< count).
    init(of: [Int32], count: Int) {
        let grouped = Grouping(labels: of, count: count)
        self.of = of
        members = grouped.members
        starts = grouped.starts
    }

    func nodes(of component: Int) -> ArraySlice<Int32> {
        members[Int(starts[component])..<Int(starts[component + 1])]
    }

    func size(of component: Int) -> Int { Int(starts[component + 1] - starts[component]) }

    /// The components of the coarser level whose node `g` holds the nodes `groupOf` maps to it.
    func coarsened(by groupOf: [Int32], coarseCount: Int) -> Components {
        var coarse = [Int32](repeating: 0, count: coarseCount)
        for (node, group) in groupOf.enumerated() { coarse[Int(group)] = of[node] }
        return Components(of: coarse, count: count)
    }
}

/// Nodes grouped by a label in 0 ..< count (a counting sort): label l's nodes, ascending, are
/// `members[starts[l] ..< starts[l + 1]]`. What components and coarsening groups both are.
struct Grouping: Sendable {
    let members: [Int32]
    let starts: [Int32]

    init(labels: [Int32], count: Int) {
        var starts = [Int32](repeating: 0, count: count + 1)
        for label in labels { starts[Int(label) + 1] += 1 }
        for l in 0..<count { starts[l + 1] += starts[l] }
        var fill = Array(starts.dropLast())
        var members = [Int32](repeating: 0, count: labels.count)
        for (node, label) in labels.enumerated() {
            members[Int(fill[Int(label)])] = Int32(node)
            fill[Int(label)] += 1
        }
        self.members = members
        self.starts = starts
    }

    func nodes(of label: Int) -> ArraySlice<Int32> { members[Int(starts[label])..<Int(starts[label + 1])] }
}
