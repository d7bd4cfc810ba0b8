import Dispatch
import Foundation
import Synchronization

/// A fixed pool of threads that step every room, each at its own `tickRate` (`StepSchedule`
/// says which room is due). A room that rests is not scheduled: it costs no thread, timer or
/// wake-up until a command arrives (`wake`).
final class StepPool: Sendable {
    private struct State: Sendable {
        var schedule = StepSchedule<RoomName>()
        var rooms: [RoomName: Room] = [:]
        var stopping = false
    }

    private enum Work {
        case turn(Room, due: Double)
        case sleep(until: Double?)
        case stop
    }

    private let state = Mutex(State())
    /// Signalled when a room becomes due sooner than the sleepers planned, and on stop.
    private let wakeups = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()
    let threadCount: Int

    init(threads: Int) { threadCount = max(1, threads) }

    func start() {
        for index in 0..<threadCount {
            finished.enter()
            let thread = Thread { [self] in
                run()
                finished.leave()
            }
            thread.name = "step-\(index)"
            thread.start()
        }
    }

    /// Stops the threads once their turns end and waits for them.
    func stop() {
        state.withLock { $0.stopping = true }
        for _ in 0..<threadCount { wakeups.signal() }
        finished.wait()
    }

    /// A room joins the pool; it gets a turn at once (it may move, or have commands waiting).
    func add(_ room: Room) {
        state.withLock { $0.rooms[room.name] = room }
        wake(room)
    }

    /// The room leaves the pool: no more turns (one under way finishes).
    func remove(_ room: Room) {
        state.withLock { state in
            state.rooms[room.name] = nil
            state.schedule.rest(room.name)
        }
    }

    /// Something arrived for the room (a command): it gets a turn now.
    func wake(_ room: Room) {
        let now = Uptime.seconds()
        state.withLock { $0.schedule.wake(room.name, at: now) }
        wakeups.signal()
    }

    private func run() {
        while true {
            switch next() {
            case .turn(let room, let due):
                let moving = room.turn()
                finish(room, due: due, moving: moving)
            case .sleep(let until):
                _ = wakeups.wait(timeout: until.map { DispatchTime(uptimeNanoseconds: UInt64($0 * 1e9)) } ?? .distantFuture)
            case .stop:
                return
            }
        }
    }

    private func next() -> Work {
        let now = Uptime.seconds()
        return state.withLock { state in
            if state.stopping { return .stop }
            while let (name, due) = state.schedule.take(now: now) {
                if let room = state.rooms[name] { return .turn(room, due: due) }
                state.schedule.finished(name, due: due, now: now, interval: 0, moving: false)
            }
            return .sleep(until: state.schedule.nextDue())
        }
    }

    /// Back in the schedule if it still moves, or if a command or a request (an export, a
    /// joiner's data) arrived during its turn (its `wake` found it stepping and left it to this;
    /// a request left waiting in a room at rest was answered only by the next command).
    private func finish(_ room: Room, due: Double, moving: Bool) {
        let interval = room.stepInterval
        let now = Uptime.seconds()
        let again = state.withLock { state in
            let again = state.rooms[room.name] != nil && (moving || !room.commands.isEmpty || !room.requests.isEmpty)
            let commandsWaiting = again && !moving
            state.schedule.finished(room.name, due: due, now: now, interval: commandsWaiting ? 0 : interval,
                                    moving: again)
            return again
        }
        // A thread asleep with no plan (or a later one) must see this room's next turn.
        if again { wakeups.signal() }
    }

}
