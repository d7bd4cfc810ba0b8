import Dispatch
import Synchronization

/// The exact O(n^2) Coulomb repulsion: every cell is pushed away from every other with
/// |F| = charge^3 / r^2. Each cell sums over all others on its own (not n^2/2 with
/// action-reaction), so cells are independent and a chunk of cells can be computed on any
/// thread while writing only its own slice of the force arrays. Both the serial and the
/// parallel path sum each cell's terms in the same order, so they agree bit for bit.
struct Coulomb {
    /// Distances are clamped to at least this many world units, whatever the cell size:
    /// the force then peaks at charge^3 (1e9 at the maximum charge), which the step bound
    /// absorbs, and nothing divides by zero.
    static let minDistance = 1.0
    /// Below this many cells the dispatch overhead outweighs the gain.
    static let parallelThreshold = 512
    /// Cells per parallel work item: big enough to amortise dispatch, small enough to balance.
    static let chunkSize = 64

    /// charge^3: at most 1e9, since `Simulation` keeps the charge in [0, 1000].
    let chargeCubed: Double
    /// Seeds the wiggle of coincident pairs.
    let tick: Int

    init(charge: Double, tick: Int) {
        chargeCubed = charge * charge * charge
        self.tick = tick
    }

    /// Fills `fx`, `fy` (resized to the cell count) with the repulsion on every cell;
    /// pinned cells get zero because they do not move. `parallel` nil chooses by size.
    func forces(
        xs: [Double], ys: [Double], ids: [CellID], pinned: [Bool],
        parallel: Bool? = nil, fx: inout [Double], fy: inout [Double]
    ) {
        let n = xs.count
        ForceBuffers.zero(&fx, &fy, count: n)
        guard n > 1, chargeCubed > 0 else { return }

        if !(parallel ?? (n >= Self.parallelThreshold)) {
            fx.withUnsafeMutableBufferPointer { ox in
                fy.withUnsafeMutableBufferPointer { oy in
                    accumulate(0..<n, xs, ys, ids, pinned, ox, oy)
                }
            }
            return
        }

        forcesInParallel(xs: xs, ys: ys, ids: ids, pinned: pinned, fx: &fx, fy: &fy)
    }

    /// Each chunk sums into a stack buffer, then copies that slice out under the lock:
    /// strict concurrency without unchecked escapes, and the lock is held for a copy of
    /// `chunkSize` values while the O(n) work per cell happens outside it.
    private func forcesInParallel(xs: [Double], ys: [Double], ids: [CellID], pinned: [Bool],
                                  fx: inout [Double], fy: inout [Double]) {
        let n = xs.count
        let out = Mutex(ForceBuffers(x: fx, y: fy))
        fx = []   // leave the mutex the only owner, so its writes do not copy
        fy = []
        let chunks = (n + Self.chunkSize - 1) / Self.chunkSize
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let start = chunk * Self.chunkSize
            let range = start..<Swift.min(start + Self.chunkSize, n)
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * range.count) { tmp in
                let lx = UnsafeMutableBufferPointer(rebasing: tmp[0..<range.count])
                let ly = UnsafeMutableBufferPointer(rebasing: tmp[range.count...])
                accumulate(range, xs, ys, ids, pinned, lx, ly)
                out.withLock { buffers in
                    for k in 0..<range.count {
                        buffers.x[start + k] = lx[k]
                        buffers.y[start + k] = ly[k]
                    }
                }
            }
        }
        let result = out.withLock { buffers in buffers }
        fx = result.x
        fy = result.y
    }

    /// Computes the repulsion on the cells in `range` into `outX[k]`, `outY[k]` for
    /// k = i - range.lowerBound (a whole-array output when the range starts at 0).
    private func accumulate(
        _ range: Range<Int>, _ xs: [Double], _ ys: [Double], _ ids: [CellID], _ pinned: [Bool],
        _ outX: UnsafeMutableBufferPointer<Double>, _ outY: UnsafeMutableBufferPointer<Double>
    ) {
        xs.withUnsafeBufferPointer { px in
        ys.withUnsafeBufferPointer { py in
        ids.withUnsafeBufferPointer { pid in
        pinned.withUnsafeBufferPointer { ppin in
            pairLoop(range, px, py, pid, ppin, outX, outY)
        }}}}
    }

    /// The pair loop for the cells in `range`; no allocation, no shared writes.
    private func pairLoop(
        _ range: Range<Int>,
        _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
        _ ids: UnsafeBufferPointer<CellID>, _ pinned: UnsafeBufferPointer<Bool>,
        _ outX: UnsafeMutableBufferPointer<Double>, _ outY: UnsafeMutableBufferPointer<Double>
    ) {
        let n = xs.count
        for i in range {
            let k = i - range.lowerBound
            guard !pinned[i] else {
                outX[k] = 0
                outY[k] = 0
                continue
            }
            let xi = xs[i], yi = ys[i]
            var ax = 0.0, ay = 0.0
            var j = 0
            while j < n {
                if j != i {
                    let f = InverseSquare.pair(dx: xi - xs[j], dy: yi - ys[j], strength: chargeCubed,
                                            id: ids[i], other: ids[j], tick: tick)
                    ax += f.x
                    ay += f.y
                }
                j += 1
            }
            outX[k] = ax
            outY[k] = ay
        }
    }
}
