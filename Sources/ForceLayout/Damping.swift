/// The least machinery that lets large layouts settle: a per-cell step gain that halves
/// whenever a cell's step reverses its previous one (it overshot) and recovers by a tenth
/// per step otherwise, like ForceAtlas2's "swinging". The article's plain `p += F` is the
/// gain of 1, which every cell keeps as long as it never overshoots: two cells, or any
/// small layout that converges monotonically, move exactly as the article says. Dense
/// layouts, whose neighbour forces make `p += F` overshoot forever, calm down instead.
///
/// A gain is learned under the forces of its time. When they change, a cell's first
/// overshoot under the new ones restarts its gain as a fresh cell's first overshoot would
/// (1, halved) instead of halving what it learned before (see `Rest`).
enum Damping {
    static let decrease = 0.5
    static let increase = 1.1
    /// Never freeze a cell completely: it must still be able to respond to changes.
    static let minimumGain = 1.0 / 1024
    /// A gain restarted at an overshoot: 1, halved.
    static let restarted = decrease

    /// The gain after a step whose proposed displacement `(dx, dy)` (at the current gain) is
    /// compared with the last one: halved on a reversal (restarted instead when the gain was
    /// learned before the forces last changed, `learnedAt <= since`, and a step under the new
    /// ones has been taken, `step > since`; `learnedAt` then becomes `step`), else recovering.
    /// Returns whether it reversed: the step must then be taken again at the new gain.
    @inline(__always)
    static func swing(_ gain: inout Double, dx: Double, dy: Double, lastDX: Double, lastDY: Double,
                      learnedAt: inout Int, since: Int, step: Int) -> Bool {
        guard dx * lastDX + dy * lastDY < 0 else {
            gain = Swift.min(1, gain * increase)
            return false
        }
        if learnedAt <= since && step > since {
            gain = restarted
            learnedAt = step
        } else {
            gain = Swift.max(minimumGain, gain * decrease)
        }
        return true
    }
}
