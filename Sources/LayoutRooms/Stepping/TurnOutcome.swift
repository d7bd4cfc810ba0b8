/// What a room's turn tells the pool (`StepSchedule.finished`).
struct TurnOutcome: Equatable, Sendable {
    /// It wants another turn: its layout steps, or a save or a deferred command is to come.
    var again: Bool
    /// Its layout steps (it shares the pool: `TurnBudget`).
    var stepping: Bool
    /// It was a frame turn (it stepped, and published the frame and status); an early turn,
    /// for commands, steps not and leaves the frame turn where it was.
    var frameTurn: Bool
    /// Steps the turn took.
    var steps = 0

    /// A room with no layout here (it left, or another server steps it).
    static let idle = TurnOutcome(again: false, stepping: false, frameTurn: false)
}
