import Dispatch
import Foundation
import LayoutCore
import Synchronization

/// A fixed pool of threads that step every room: a moving room gets a turn per frame, at its own
/// `tickRate` (`StepSchedule` says which room is due), and steps in it as often as its share
/// of the pool allows (`TurnBudget`). A room that rests is not scheduled: it costs no thread,
/// timer or wake-up until a command arrives (`wake`); a command for a moving room gets it an
/// early turn that applies it at once. A turn also ends, after its first step, once another
/// room's turn is due and every thread is in a turn (`yieldsTo`): a room of few frames a second
/// and a long budget never holds up the frames of a faster one.
package final class StepPool: Sendable {
    private struct State: Sendable {
        var schedule = StepSchedule<RoomName>()
        var rooms: [RoomName: Room] = [:]
        var stopping = false
        /// Threads in a turn now.
        var busy = 0
    }

    private enum Work {
        case turn(Room, StepSchedule<RoomName>.Turn, TurnBudget)
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
    package func add(_ room: Room) {
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
            case .turn(let room, let turn, let budget):
                let outcome = room.turn(budget: budget, early: turn.isEarly) { [self] in othersWaiting() }
                finish(room, turn, outcome)
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
            while let turn = state.schedule.take(now: now) {
                if let room = state.rooms[turn.room] {
                    let budget = TurnBudget(frameInterval: room.stepInterval, threads: threadCount,
                                            movingRooms: state.schedule.movingCount)
                    state.busy += 1
                    return .turn(room, turn, budget)
                }
                state.schedule.finished(turn, now: now, interval: 0, again: false, stepping: false, frameTurn: false)
            }
            return .sleep(until: state.schedule.nextDue())
        }
    }

    /// Whether a turn under way should end now (after its first step): another room's turn is
    /// due and no thread is free to take it.
    private func othersWaiting() -> Bool {
        let now = Uptime.seconds()
        return state.withLock { state in
            state.busy >= threadCount && (state.schedule.nextDue().map { $0 <= now } ?? false)
        }
    }

    /// Back in the schedule if it still moves (its next frame turn), and for an early turn at
    /// once if a command or a request (an export, a joiner's data) arrived during its turn (its
    /// `wake` found the turn under way and left it to this; a request left waiting in a room at
    /// rest was answered only by the next command).
    private func finish(_ room: Room, _ turn: StepSchedule<RoomName>.Turn, _ outcome: TurnOutcome) {
        let interval = room.stepInterval
        let now = Uptime.seconds()
        let again = state.withLock { state in
            state.busy -= 1
            let present = state.rooms[room.name] != nil
            let waiting = present && (!room.commands.isEmpty || !room.requests.isEmpty)
            state.schedule.finished(turn, now: now, interval: interval, again: present && outcome.again,
                                    stepping: outcome.stepping, frameTurn: outcome.frameTurn)
            if waiting { state.schedule.wake(room.name, at: now) }
            return present && (outcome.again || waiting)
        }
        // A thread asleep with no plan (or a later one) must see this room's next turn.
        if again { wakeups.signal() }
    }
}
