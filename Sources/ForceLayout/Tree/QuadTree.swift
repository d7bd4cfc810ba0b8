/// A region quadtree over the cells, rebuilt every step into flat arrays (no per-node
/// objects). A node holding more than `leafCapacity` cells has four children, allocated
/// consecutively after it; a node's mass is its cell count and its center of mass the mean
/// of its cells. The cells are sorted into tree order (depth first), so every node's cells
/// are one contiguous range of `order`, and neighbours in space are neighbours in memory.
/// Built in parallel for large layouts (see `QuadTree+Build.swift`); the result does not
/// depend on how the work was split.
struct QuadTree: Sendable {
    static let leafCapacity = 8
    /// Past this depth a leaf just grows: coincident cells cannot be separated by splitting.
    static let maxDepth = 40

    /// Every node, root first; children after their parent, four at a time.
    var nodes: [PackedNode] = []
    /// Cell indices in tree order: node `k`'s cells are `order[start ..< start + count]`.
    var order: [Int32] = []
    /// The cells' positions in tree order (`sortedX[k]` is `xs[order[k]]`).
    var sortedX: [Double] = []
    var sortedY: [Double] = []
    /// Every non-empty leaf, in tree order.
    var leaves: [Int32] = []
    /// Scratch for the build's partitions, kept to reuse its storage.
    var points: [TreePoint] = []
    var scratch: [TreePoint] = []

    /// The first cell of each leaf in `order` (as `leaves`).
    func leafStart(_ slot: Int) -> Int { Int(nodes[Int(leaves[slot])].start) }
}

/// One node as the force pass reads it: everything about it in one or two cache lines.
struct PackedNode: Sendable {
    var centerX, centerY, half: Double
    var massX, massY, mass: Double
    /// Quadrupole moments about the center of mass (in-plane part of the 3D tensor of a
    /// 1/r potential): qxx = Σ(2x² − y²), qyy = Σ(2y² − x²), qxy = Σ3xy.
    var qxx, qyy, qxy: Double
    /// First of four children, or -1 for a leaf.
    var firstChild: Int32
    /// Bit q set when child q holds cells (so a walk skips empty children unread).
    var occupied: UInt8
    /// The node's cells are `order[start ..< start + count]`.
    var start: Int32
    var count: Int32

    /// An empty node of the given square, as a parent's partition makes it.
    init(centerX: Double, centerY: Double, half: Double, start: Int, count: Int) {
        self.centerX = centerX; self.centerY = centerY; self.half = half
        massX = centerX; massY = centerY; mass = 0
        qxx = 0; qyy = 0; qxy = 0
        firstChild = -1
        occupied = 0
        self.start = Int32(start); self.count = Int32(count)
    }

    var isLeaf: Bool { firstChild < 0 }

    /// The children that hold cells, in order (none for a leaf).
    @inline(__always)
    var occupiedChildren: OccupiedChildren { OccupiedChildren(first: firstChild, bits: occupied) }
}

/// The indices of a node's non-empty children, from its `occupied` bits.
struct OccupiedChildren: Sequence, IteratorProtocol {
    let first: Int32
    var bits: UInt8

    @inline(__always)
    mutating func next() -> Int32? {
        guard bits != 0 else { return nil }
        let q = Int32(bits.trailingZeroBitCount)
        bits &= bits &- 1
        return first + q
    }
}

/// A cell while the tree is built: its position and index, moved together by the partitions.
struct TreePoint: Sendable {
    var x: Double
    var y: Double
    var index: Int32
}
