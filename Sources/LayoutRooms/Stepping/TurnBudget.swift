/// How long one frame turn of a moving room may go on stepping: the room's share of the pool's
/// time for one frame, less a margin. Pure: the pool makes one per turn, the room asks it
/// between steps.
///
/// - Share: the frame interval (1 / `tickRate`) times the room's part of the pool, threads ÷
///   rooms that step, at most one thread (a room steps on one thread at a time; the engine
///   spreads a large step over the cores itself).
/// - Duty: of that share, the turn takes `duty` (3/4), so the pool is never pinned at 100%
///   by rooms that go on converging: the service thread, which sends the frames, and the
///   other processes of the machine keep a quarter of each step thread's time.
/// - A turn takes at least one step (a room whose step is longer than its budget steps once
///   per turn, as often as the pool lets it, as before frames and steps were two things), and
///   another only while the time spent plus one more step (as long as the last) plus the
///   frame's publishing (as long as the last) stays within the budget.
/// - A spare thread (fewer rooms step than the pool has threads): the turn may take its whole
///   share (no duty: the spare thread is the service thread's and the machine's), and a step
///   may start while the share is not used up, finishing past it. A room whose steps are long
///   (a graph of 100k cells: 36 ms a step at 20 frames/s) then takes two steps a turn instead
///   of one, and settles in 27 s instead of 35 s, its frames 75 ms apart instead of 50;
///   a room of short steps keeps its frame rate.
/// - Yielding: besides the budget, a turn ends after its first step once another room's turn
///   is due and every thread is in a turn (`StepPool`), so a long budget (a room of 1 frame a
///   second may step for 0.75 s) never makes a faster room miss its frames.
struct TurnBudget: Equatable, Sendable {
    /// The part of its share of the pool a turn may take.
    static let duty = 0.75

    /// Seconds one turn may take, publishing included.
    let seconds: Double
    /// Whether a thread of the pool is spare (fewer rooms step than it has threads).
    let spare: Bool

    init(frameInterval: Double, threads: Int, movingRooms: Int, duty: Double = Self.duty) {
        let threads = max(1, threads), rooms = max(1, movingRooms)
        let share = min(1, Double(threads) / Double(rooms))
        spare = rooms < threads
        seconds = max(0, frameInterval) * share * (spare ? 1 : duty)
    }

    /// Whether one more step fits, `elapsed` seconds into the turn, after `steps` steps, the
    /// last taking `lastStep` seconds, when publishing the frame takes `publishing`. With a
    /// spare thread, a step may start while the turn and its publishing are within the budget.
    func allowsStep(after steps: Int, elapsed: Double, lastStep: Double, publishing: Double) -> Bool {
        steps == 0 || elapsed + (spare ? 0 : lastStep) + publishing <= seconds
    }
}
