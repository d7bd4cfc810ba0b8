/// The least machinery that lets large layouts settle: a per-cell step gain that halves
/// whenever a cell's step reverses its previous one (it overshot) and recovers by a tenth
/// per step otherwise, like ForceAtlas2's "swinging". The article's plain `p += F` is the
/// gain of 1, which every cell keeps as long as it never overshoots: two cells, or any
/// small layout that converges monotonically, move exactly as the article says. Dense
/// layouts, whose neighbour forces make `p += F` overshoot forever, calm down instead.
enum Damping {
    static let decrease = 0.5
    static let increase = 1.1
    /// Never freeze a cell completely: it must still be able to respond to changes.
    static let minimumGain = 1.0 / 1024
}
