import Dispatch
import Synchronization

/// Keeps cells from overlapping: after the forces have moved the cells, every pair whose
/// centers are closer than the sum of their radii (`cellSize` when every cell has the default
/// radius, half of it) is pushed apart along the line between them until they just touch (a pinned cell does not move; the other takes
/// the whole correction). Pairs come from the quadtree; the projection runs Gauss-Seidel
/// sweeps in tree order until the deepest overlap is below `tolerance` of a cell.
struct Collision {
    private struct Pairs: Sendable { var list: [Int32] = [] }

    /// Sweeps per step: enough for the overlaps one step makes, bounded to keep steps fast.
    static let maxSweeps = 64
    /// Rounds of sweeps in the final tidy-up, for contacts with pinned cells.
    static let polishRounds = 20
    /// Centers closer than `(1 − tolerance) · cellSize` count as overlapping.
    static let tolerance = 1e-3
    /// Candidate pairs are gathered a little beyond contact, since sweeps move cells.
    static let reach = 1.5
    static let chunkSize = 512
    /// How much of a contact's push carries over to the next step: most of it, so a packed
    /// layout's contacts bear their load; not all, so contacts that open let go.
    static let pushDecay = 0.98

    let size: Double
    let tick: Int
    /// Every cell's radius, in membership order; empty: all are `size / 2`, and the sums are
    /// `size` itself (so a layout of default cells collides exactly as before radii).
    var radii: [Double] = []

    /// The distance at which cells `i` and `j` touch.
    @inline(__always)
    private static func contact(_ i: Int, _ j: Int, _ radii: UnsafeBufferPointer<Double>, _ size: Double) -> Double {
        radii.isEmpty ? size : radii[i] + radii[j]
    }

    /// Gathers candidate pairs, then projects with at most `sweeps` sweeps. Returns the
    /// deepest overlap left.
    @discardableResult
    func resolve(tree: inout QuadTree, xs: inout [Double], ys: inout [Double], ids: [CellID], pinned: [Bool],
                 sweeps: Int = maxSweeps) -> Double {
        let n = xs.count
        guard n > 1 else { return 0 }
        xs.withUnsafeBufferPointer { px in
            ys.withUnsafeBufferPointer { py in tree.build(xs: px, ys: py) }
        }
        let pairs = candidatePairs(tree: tree, xs: xs, ys: ys)
        var deepest = 0.0
        xs.withUnsafeMutableBufferPointer { xs in
        ys.withUnsafeMutableBufferPointer { ys in
        pairs.withUnsafeBufferPointer { pairs in
        ids.withUnsafeBufferPointer { ids in
        pinned.withUnsafeBufferPointer { pinned in
        radii.withUnsafeBufferPointer { radii in
            for _ in 0..<sweeps {
                deepest = sweep(pairs, xs, ys, ids, pinned, radii)
                if deepest < Self.tolerance * size { break }
            }
        }}}}}}
        return deepest
    }

    /// The tidy-up at rest. A packed layout at rest is squeezed by its spring, and sweeps
    /// relieve that only a layer at a time; so first spread the free cells about the
    /// center by the one factor that brings the closest free pair to touching (every other
    /// distance grows by the same factor, so no free pair overlaps), then sweep away the
    /// overlaps with pinned cells.
    func polish(tree: inout QuadTree, xs: inout [Double], ys: inout [Double], ids: [CellID], pinned: [Bool]) {
        let n = xs.count
        guard n > 1 else { return }
        xs.withUnsafeBufferPointer { px in
            ys.withUnsafeBufferPointer { py in tree.build(xs: px, ys: py) }
        }
        let pairs = candidatePairs(tree: tree, xs: xs, ys: ys)
        let factor = spreadFactor(pairs: pairs, xs: xs, ys: ys, pinned: pinned)
        if factor > 1 {
            for i in 0..<n where !pinned[i] {
                xs[i] *= factor
                ys[i] *= factor
            }
        }
        guard pinned.contains(true) else { return }
        for _ in 0..<Self.polishRounds {
            if resolve(tree: &tree, xs: &xs, ys: &ys, ids: ids, pinned: pinned) < Self.tolerance * size { break }
        }
    }

    /// The factor that brings the most overlapping free pair to touching (contact over
    /// distance, the largest); 1 when no free pair overlaps, or when the factor would be
    /// absurd (coincident cells: the sweeps separate those).
    private func spreadFactor(pairs: [Int32], xs: [Double], ys: [Double], pinned: [Bool]) -> Double {
        radii.withUnsafeBufferPointer { radii in
            // Uniform radii: the closest pair decides (`size / closest`, as before radii).
            var closest = Double.infinity
            var worst = 1.0
            var p = 0
            while p < pairs.count {
                let i = Int(pairs[p]), j = Int(pairs[p + 1])
                p += 2
                guard !pinned[i], !pinned[j] else { continue }
                let dx = xs[i] - xs[j], dy = ys[i] - ys[j]
                let distance = (dx * dx + dy * dy).squareRoot()
                if radii.isEmpty {
                    closest = Swift.min(closest, distance)
                } else {
                    let contact = radii[i] + radii[j]
                    if distance < contact * (1 - Self.tolerance) {
                        worst = Swift.max(worst, contact / Swift.max(distance, Wiggle.epsilon * 1000))
                    }
                }
            }
            if radii.isEmpty, closest < size * (1 - Self.tolerance) {
                worst = size / Swift.max(closest, Wiggle.epsilon * 1000)
            }
            guard worst > 1 else { return 1 }
            let factor = worst * (1 + 1e-9)
            return factor.isFinite && factor < 1e6 ? factor : 1
        }
    }

    /// One Gauss-Seidel pass over the pairs; returns the deepest overlap it met.
    private func sweep(_ pairs: UnsafeBufferPointer<Int32>, _ xs: UnsafeMutableBufferPointer<Double>,
                       _ ys: UnsafeMutableBufferPointer<Double>, _ ids: UnsafeBufferPointer<CellID>,
                       _ pinned: UnsafeBufferPointer<Bool>, _ radii: UnsafeBufferPointer<Double>) -> Double {
        var deepest = 0.0
        var p = 0
        while p < pairs.count {
            let i = Int(pairs[p]), j = Int(pairs[p + 1])
            p += 2
            let pinnedI = pinned[i], pinnedJ = pinned[j]
            if pinnedI && pinnedJ { continue }
            var dx = xs[i] - xs[j], dy = ys[i] - ys[j]
            let d2 = dx * dx + dy * dy
            let contact = Self.contact(i, j, radii, size)
            guard d2 < contact * contact else { continue }
            var r = d2.squareRoot()
            if r < Wiggle.epsilon {
                let w = Wiggle.direction(for: ids[i], awayFrom: ids[j], tick: tick)
                dx = w.x; dy = w.y; r = 0
            } else {
                dx /= r; dy /= r
            }
            let overlap = contact - r
            deepest = Swift.max(deepest, overlap)
            let shareI = pinnedI ? 0.0 : (pinnedJ ? 1.0 : 0.5)
            let shareJ = pinnedJ ? 0.0 : 1.0 - shareI
            xs[i] += dx * overlap * shareI
            ys[i] += dy * overlap * shareI
            xs[j] -= dx * overlap * shareJ
            ys[j] -= dy * overlap * shareJ
        }
        return deepest
    }

    /// Pairs (i, j), flattened, of cells closer than `reach` times their contact distance,
    /// grouped by i in tree order. With radii, each pair is found from its larger cell (the
    /// lower index on a tie), which searches `reach` times its own diameter: small cells never
    /// search as far as the largest one.
    private func candidatePairs(tree: QuadTree, xs: [Double], ys: [Double]) -> [Int32] {
        let n = xs.count
        let radii = self.radii
        let chunks = (n + Self.chunkSize - 1) / Self.chunkSize
        let collected = Mutex([[Int32]](repeating: [], count: chunks))
        let work: @Sendable (Int) -> Void = { chunk in
            let start = chunk * Self.chunkSize
            let range = start..<Swift.min(start + Self.chunkSize, n)
            let local = neighbours(range, tree: tree, xs: xs, ys: ys, radii: radii)
            collected.withLock { $0[chunk] = local }
        }
        if n >= 2048 {
            DispatchQueue.concurrentPerform(iterations: chunks, execute: work)
        } else {
            for chunk in 0..<chunks { work(chunk) }
        }
        return collected.withLock { $0.flatMap { $0 } }
    }

    /// The candidate pairs of the cells at `range` in tree order. With no radii every cell's is
    /// `size / 2`: the search is then `size * reach` and a pair is kept from its lower index,
    /// the same numbers as before radii.
    private func neighbours(_ range: Range<Int>, tree: QuadTree, xs: [Double], ys: [Double], radii: [Double]) -> [Int32] {
        let standard = size / 2
        var found: [Int32] = []
        found.reserveCapacity(range.count * 16)
        var stack: [Int32] = []
        stack.reserveCapacity(4 * QuadTree.maxDepth + 8)
        for slot in range {
            let i = Int(tree.order[slot])
            let xi = xs[i], yi = ys[i], ri = radii.isEmpty ? standard : radii[i]
            let search = 2 * ri * Self.reach
            stack.removeAll(keepingCapacity: true)
            stack.append(0)
            while let last = stack.popLast() {
                let node = tree.nodes[Int(last)]
                let h = node.half + search
                guard Swift.abs(xi - node.centerX) <= h, Swift.abs(yi - node.centerY) <= h else { continue }
                if !node.isLeaf {
                    stack.append(contentsOf: node.occupiedChildren)
                    continue
                }
                for k in Int(node.start)..<Int(node.start + node.count) {
                    let j = Int(tree.order[k])
                    let rj = radii.isEmpty ? standard : radii[j]
                    guard rj < ri || (rj == ri && j > i) else { continue }
                    let dx = xi - xs[j], dy = yi - ys[j]
                    let reach = Self.reach * (ri + rj)
                    if dx * dx + dy * dy < reach * reach {
                        found.append(Int32(i))
                        found.append(Int32(j))
                    }
                }
            }
        }
        return found
    }
}
