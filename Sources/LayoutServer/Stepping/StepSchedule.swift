/// When each moving room steps next, for a fixed pool of stepping threads: rooms step at their
/// own `tickRate`; a settled or paused room is not in the schedule at all (no timer, no
/// wake-up), and comes back when something wakes it. Pure: the pool asks it which room is due
/// and reports back when that room's step is done.
///
/// A room is handed to one thread at a time: while it steps it is out of the schedule, and
/// `finished` puts it back (or not, if it came to rest). A step that overran its interval is
/// followed at once by the next, never by a full extra interval.
struct StepSchedule<Room: Hashable & Sendable>: Sendable {
    private struct Entry: Comparable, Sendable {
        let due: Double
        let order: Int
        let room: Room
        static func < (a: Entry, b: Entry) -> Bool { (a.due, a.order) < (b.due, b.order) }
        static func == (a: Entry, b: Entry) -> Bool { a.due == b.due && a.order == b.order }
    }

    /// A binary min-heap on (due, order); an entry is stale once `current[room]` moved on.
    private var heap: [Entry] = []
    /// The live entry of each scheduled room.
    private var current: [Room: (order: Int, due: Double)] = [:]
    private var stepping: Set<Room> = []
    private var counter = 0

    /// Rooms waiting for their next step (not those stepping now).
    var scheduledCount: Int { current.count }

    func isScheduled(_ room: Room) -> Bool { current[room] != nil }

    /// The room moves (again): its next step is due at `at`, unless it is already scheduled
    /// sooner or is stepping now (then `finished` reschedules it).
    mutating func wake(_ room: Room, at: Double) {
        guard !stepping.contains(room) else { return }
        if let scheduled = current[room], scheduled.due <= at { return }
        push(room, due: at)
    }

    /// The room settled, paused or went away: no more steps until `wake`.
    mutating func rest(_ room: Room) {
        current[room] = nil
    }

    /// The earliest time something is due (nil: nothing moves; the pool can sleep).
    mutating func nextDue() -> Double? {
        dropStale()
        return heap.first?.due
    }

    /// The room to step now, if one is due; it is out of the schedule until `finished`.
    mutating func take(now: Double) -> (room: Room, due: Double)? {
        dropStale()
        guard let top = heap.first, top.due <= now else { return nil }
        popTop()
        current[top.room] = nil
        stepping.insert(top.room)
        return (top.room, top.due)
    }

    /// The room's step that was due at `due` is done at `now`: its next one is `interval`
    /// later (at once if it overran), or none if it `moving` no more.
    mutating func finished(_ room: Room, due: Double, now: Double, interval: Double, moving: Bool) {
        stepping.remove(room)
        guard moving else { return }
        push(room, due: max(due + interval, now))
    }

    private mutating func push(_ room: Room, due: Double) {
        counter += 1
        current[room] = (counter, due)
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
