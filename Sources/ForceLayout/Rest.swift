/// When a step counts as rest (`StepReport.settled`): when no free cell moved `threshold`
/// or more, where a cell's movement is judged by its damped step only if its damping was
/// learned under the current forces, and otherwise by the step it would take undamped, the
/// article's own `p += F` (bounded by `maxStep`).
///
/// The damped step alone can be fooled. `Damping` halves a cell's gain at every overshoot,
/// down to 1/1024, and regains a tenth per step: a gain is the memory of past forces.
/// After a history of flapped parameters (cellSize 1 <-> 200, charge 0 <-> 1000) the gains
/// sat at the floor while the layout was spread 10-30x wider than a fresh one; a spring
/// pull of 100 made a step of 0.1, which passed for rest, and a settled layout is no longer
/// stepped, so the gains never recovered (issue 9).
///
/// So every change that moves cells differently (a parameter other than `threshold`,
/// `tickRate` and `paused`; an added or removed cell; a pin or unpin) makes every gain
/// stale (`Simulation.forcesSince`, O(1) however many cells). A stale gain is kept, so the
/// layout moves on as smoothly as before, but it does not count: the cell is judged by its
/// undamped step. A cell is judged by its damped step again once it has overshot between
/// two steps under the current forces; at that overshoot its gain restarts as a fresh
/// cell's would (1, halved), so from then on it is exactly what a fresh layout would trust.
/// Whatever happened before, `settled` then means what it means for a fresh layout of the
/// same cells: far cells pulled steadily are never at rest, however low their gain was.
///
/// Why not simply judge every cell by its undamped step: at theta 0.9 the Barnes-Hut forces
/// of a dense layout (10k cells of the default size) jitter by a few tenths as the tree
/// changes, so a handful of cells never get below `threshold` undamped; such a layout took
/// 2480 steps instead of 244 to settle, and larger ones might never. Damping learned under
/// the current forces is what lets them settle; only damping learned before is not trusted.
/// Why not reset every gain to 1 on every change: the page sends up to 20 parameter values
/// a second while a slider is dragged, and a dense layout with its gains reset at every
/// step overshoots as plain `p += F` does, forever. A stale gain is replaced only when its
/// cell overshoots again, so a dense layout relearns its damping at most once per change.
///
/// Cost: a comparison per cell; the undamped step is computed only for stale, damped cells.
/// A cell whose gain is 1 is judged by its step, which is undamped: calm layouts settle
/// exactly as before, and their positions are untouched (theta 0 is the article, step for
/// step). With `collide`, a stale cell's movement after the collisions counts plus what
/// damping withheld from its free step (its undamped step less its damped one).
enum Rest {
    /// The length of the step a cell's rest is judged by: its step `damped` (taken with
    /// `gain`) if the gain is 1 or was `learned` under the current forces, else the
    /// undamped step of the force (fx, fy).
    @inline(__always)
    static func step(damped: Double, gain: Double, learned: Bool, fx: Double, fy: Double, bound: Double) -> Double {
        if gain == 1 || learned { return damped }
        return boundedDisplacement(fx: fx, fy: fy, maxStep: bound).length
    }
}
