/// The interaction lists of one group of cells, as contiguous columns the force loops stream
/// through a block of `Lanes` at a time: far nodes (center of mass, mass, quadrupole) and near cells
/// (position, tree slot). Coordinates are single precision and relative to `origin`, the
/// group's center, so they stay small and exact to a few millionths of the distances
/// involved; whatever needs more (coincident cells, astronomically distant nodes) is
/// recomputed in double from `farNode` / `nearSlot`. Owned by one work item; grows by
/// doubling and is reused group after group, so the force loops allocate nothing. A
/// non-copyable struct rather than a class: its fields are read in the innermost loops,
/// where a class's would pay a dynamic exclusivity check per access.
struct InteractionLists: ~Copyable {
    /// Padding entries sit this far from the origin: massless far nodes, and near cells the
    /// loop masks out.
    static let padDistance: Float = 1e5

    private(set) var originX = 0.0, originY = 0.0
    private(set) var far = Columns(count: 6, capacity: 256)
    private(set) var farNode = Int32Column(capacity: 256)
    private(set) var near = Columns(count: 2, capacity: 1024)
    private(set) var nearSlot = Int32Column(capacity: 1024)
    /// Scratch for the force loops: the blocks they leave for double precision.
    private(set) var pending = Int32Column(capacity: 1024)
    private(set) var farCount = 0
    /// Near cells, without the padding.
    private(set) var nearCount = 0

    deinit {
        far.deallocate(); farNode.deallocate(); near.deallocate(); nearSlot.deallocate(); pending.deallocate()
    }

    /// The cell at tree position `k`, relative to the origin, in every lane.
    @inline(__always)
    func lanes(of k: Int, _ view: TreeView) -> (x: Lanes, y: Lanes) {
        (Lanes(repeating: Float(view.xs[k] - originX)), Lanes(repeating: Float(view.ys[k] - originY)))
    }

    mutating func reset(originX: Double, originY: Double) {
        self.originX = originX
        self.originY = originY
        farCount = 0
        nearCount = 0
    }

    @inline(__always)
    mutating func addFar(_ node: PackedNode, index: Int32) {
        if farCount + Lanes.scalarCount > far.capacity {
            far.grow(farCount); farNode.grow(farCount); pending.reserve(far.capacity)
        }
        let columns = far.columns
        columns.0[farCount] = Float(node.massX - originX)
        columns.1[farCount] = Float(node.massY - originY)
        columns.2[farCount] = Float(node.mass)
        columns.3[farCount] = Float(node.qxx)
        columns.4[farCount] = Float(node.qyy)
        columns.5[farCount] = Float(node.qxy)
        farNode[farCount] = index
        farCount += 1
    }

    /// Adds the cells at tree positions `range` (a leaf's).
    @inline(__always)
    mutating func addNear(_ range: Range<Int>, _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>) {
        while nearCount + range.count + Lanes.scalarCount > near.capacity {
            near.grow(nearCount); nearSlot.grow(nearCount); pending.reserve(near.capacity)
        }
        let columns = near.columns, slots = nearSlot.base
        let ox = originX, oy = originY
        var c = nearCount
        for j in range {
            columns.0[c] = Float(xs[j] - ox)
            columns.1[c] = Float(ys[j] - oy)
            slots[c] = Int32(j)
            c += 1
        }
        nearCount = c
    }

    /// Pads both lists to whole blocks of `Lanes`.
    mutating func pad() {
        let width = Lanes.scalarCount
        while farCount % width != 0 {
            far[0, farCount] = Self.padDistance; far[1, farCount] = Self.padDistance
            for column in 2..<6 { far[column, farCount] = 0 }
            farNode[farCount] = -1
            farCount += 1
        }
        for c in nearCount..<((nearCount + width - 1) / width * width) {
            near[0, c] = Self.padDistance; near[1, c] = Self.padDistance
            nearSlot[c] = -1
        }
    }
}
