import EventBus
import ForceLayout
import Synchronization

/// One room: a layout of its own, with its event bus, command queue, newest frame and status.
/// The shared parts are `Sendable`; the layout itself (`RoomLayout`) sits behind a lock and is
/// stepped by one thread of the pool at a time (`StepSchedule` hands a room to one thread).
final class Room: Sendable {
    let name: RoomName
    let bus: EventBus<LayoutEvent>
    /// Each event encoded once for all the room's connections (sequence numbers are the
    /// room's own, so the cache must be too).
    let eventMessages = EventMessages()
    let commands = CommandQueue()
    let requests = TurnRequests()
    let frames = FrameBoard()
    let status = StatusBoard()
    /// Told when this room published something its connections should see.
    private let changed: ChangedRooms
    private let layout: Mutex<RoomLayout>

    init(name: RoomName, layout: consuming sending RoomLayout, replayCapacity: Int, changed: ChangedRooms) {
        self.name = name
        bus = EventBus(replayCapacity: replayCapacity)
        self.changed = changed
        self.layout = Mutex(layout)
        // The first frame and status, before any client is served from them.
        self.layout.withLock { $0.publishChanges(to: self) }
    }

    /// One turn of the pool (commands, a step, publishing, a save when due). Returns whether
    /// the room wants another turn: it moves, or a save is still to come.
    func turn() -> Bool {
        layout.withLock { $0.turn(of: self) }
    }

    /// The interval between steps at the room's `tickRate`, in seconds.
    var stepInterval: Double { 1 / status.current.parameters.tickRate }

    /// Writes the room's file one last time (unloading, or the server stopping). Waits for a
    /// turn under way on another thread.
    func close() {
        layout.withLock { $0.close() }
    }

    /// Deletes the room's file (a forgotten room), after any write under way.
    func discard() {
        layout.withLock { $0.keeper?.discard() }
    }

    /// Cells it holds, for the total (`CellBudget`) when it leaves memory.
    var cellCount: Int { layout.withLock { $0.state.simulation.count } }

    func announce() { changed.insert(name) }
}

/// The rooms that published something since the service thread last looked, and the wake-up
/// that makes it look (`lws_cancel_service`).
final class ChangedRooms: Sendable {
    private let names = Mutex<Set<RoomName>>([])
    private let waker = Mutex<ServiceWaker?>(nil)

    func attach(_ serviceWaker: ServiceWaker) { waker.withLock { $0 = serviceWaker } }

    func insert(_ name: RoomName) {
        let first = names.withLock { $0.insert(name).inserted && $0.count == 1 }
        // One wake-up covers every room inserted until the service thread takes them.
        if first { waker.withLock { $0?.wake() } }
    }

    func take() -> Set<RoomName> {
        names.withLock { names in
            defer { names.removeAll(keepingCapacity: true) }
            return names
        }
    }
}
