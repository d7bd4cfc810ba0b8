/// When each moving room gets its next turn, for a fixed pool of stepping threads: a moving
/// room has a turn per frame, at its own frame rate (`tickRate`), in which it steps as often
/// as its `TurnBudget` allows and publishes one frame; a settled or paused room is not in the
/// schedule at all (no timer, no wake-up), and comes back when something wakes it. Pure: the
/// pool asks it which room is due and reports back when that room's turn is done.
///
/// A command for a room waiting for its next frame turn does not wait for it: `wake` gives the
/// room an early turn now (`Turn.frameDue` set), which applies the commands and answers the
/// requests without stepping or publishing a frame, and the frame turn stays where it was. A
/// room at rest woken by a command gets a full turn at once.
///
/// A room is handed to one thread at a time: while its turn runs it is out of the schedule,
/// and `finished` puts it back (or not, if it came to rest). A turn that overran its interval
/// is followed at once by the next, never by a full extra interval.
struct StepSchedule<Room: Hashable & Sendable>: Sendable {
    /// A room's turn, as `take` hands it out.
    struct Turn: Equatable, Sendable {
        let room: Room
        /// When it was due.
        let due: Double
        /// An early turn (commands came before the frame was due): when the frame turn is due.
        /// Nil: a frame turn.
        let frameDue: Double?

        var isEarly: Bool { frameDue != nil }
    }

    private struct Entry: Comparable, Sendable {
        let due: Double
        let order: Int
        let room: Room
        static func < (a: Entry, b: Entry) -> Bool { (a.due, a.order) < (b.due, b.order) }
        static func == (a: Entry, b: Entry) -> Bool { a.due == b.due && a.order == b.order }
    }

    private struct Scheduled: Sendable {
        let order: Int
        let due: Double
        let frameDue: Double?
    }

    /// A binary min-heap on (due, order); an entry is stale once `current[room]` moved on.
    private var heap: [Entry] = []
    /// The live entry of each scheduled room.
    private var current: [Room: Scheduled] = [:]
    /// Rooms whose turn runs now.
    private var taken: Set<Room> = []
    /// Rooms whose layout steps (their last turn said so), scheduled or taken: what shares
    /// the pool (`TurnBudget`).
    private var steppingRooms: Set<Room> = []
    private var counter = 0

    /// Rooms waiting for their next turn (not those whose turn runs now).
    var scheduledCount: Int { current.count }

    /// Rooms that step, waiting or in their turn (at least 1: the one asking).
    var movingCount: Int { max(1, steppingRooms.count) }

    func isScheduled(_ room: Room) -> Bool { current[room] != nil }

    /// Something arrived for the room at `at` (a command, a request): a room at rest gets a
    /// frame turn then; one waiting for its frame turn gets an early turn then (its frame turn
    /// stays due when it was); one already due by then, or whose turn runs now (`finished`
    /// reschedules it), is left as it is.
    mutating func wake(_ room: Room, at: Double) {
        guard !taken.contains(room) else { return }
        guard let scheduled = current[room] else {
            push(room, due: at, frameDue: nil)
            return
        }
        guard scheduled.due > at else { return }
        push(room, due: at, frameDue: scheduled.frameDue ?? scheduled.due)
    }

    /// The room settled, paused or went away: no more turns until `wake`.
    mutating func rest(_ room: Room) {
        current[room] = nil
        steppingRooms.remove(room)
    }

    /// The earliest time something is due (nil: nothing moves; the pool can sleep).
    mutating func nextDue() -> Double? {
        dropStale()
        return heap.first?.due
    }

    /// The room whose turn is due now, if one is; it is out of the schedule until `finished`.
    mutating func take(now: Double) -> Turn? {
        dropStale()
        guard let top = heap.first, top.due <= now, let scheduled = current[top.room] else { return nil }
        popTop()
        current[top.room] = nil
        taken.insert(top.room)
        return Turn(room: top.room, due: top.due, frameDue: scheduled.frameDue)
    }

    /// The room's `turn` ended at `now`. `again`: it wants another turn (it steps, or has a save
    /// or commands to come); `stepping`: its layout steps; `frameTurn`: the turn stepped and
    /// published the frame (an early turn does when the layout was at rest). The next frame
    /// turn is `interval` after that one (at once if it overran); an early turn leaves the frame
    /// turn where it was.
    mutating func finished(_ turn: Turn, now: Double, interval: Double, again: Bool, stepping: Bool, frameTurn: Bool) {
        taken.remove(turn.room)
        if stepping && again { steppingRooms.insert(turn.room) } else { steppingRooms.remove(turn.room) }
        guard again else { return }
        let next = if frameTurn || turn.frameDue == nil { turn.due + interval } else { turn.frameDue! }
        push(turn.room, due: max(next, now), frameDue: nil)
    }

    private mutating func push(_ room: Room, due: Double, frameDue: Double?) {
        counter += 1
        current[room] = Scheduled(order: counter, due: due, frameDue: frameDue)
        heap.append(Entry(due: due, order: counter, room: room))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func dropStale() {
        while let top = heap.first, current[top.room]?.order != top.order { popTop() }
    }

    private mutating func popTop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left] < heap[smallest] { smallest = left }
            if right < heap.count, heap[right] < heap[smallest] { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
