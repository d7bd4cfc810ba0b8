import Dispatch
import EventBus
import ForceLayout
import Foundation
import Logging
import Synchronization

/// The simulation thread: applies queued commands, steps at `tickRate`, encodes each frame
/// once, publishes events, stores the frame and wakes the service thread.
///
/// The `Simulation` itself lives only on that thread; everything shared is `Sendable`.
final class SimulationLoop: Sendable {
    struct Shared: Sendable {
        let commands: CommandQueue
        let frames: FrameBoard
        let status: StatusBoard
        let bus: EventBus<LayoutEvent>
        let limits: Limits
        let logger: Logger
    }

    private let shared: Shared
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(shared: Shared) { self.shared = shared }

    /// Starts the thread with `initial` (a restored layout, or an empty one); `keeper` (with
    /// `--state`) saves it and reserves ids. Returns once the first frame and status are
    /// published: a client served before would get a `hello` with the default parameters
    /// and no cells, not the restored layout.
    func start(initial: LayoutSnapshot?, keeper: StateKeeper?, parameters: Parameters, seed: UInt64,
               waker: ServiceWaker) {
        let published = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            var simulation = Simulation(parameters: parameters, seed: seed)
            if let initial {
                // Already validated when the state file was read; this cannot fail in practice.
                do {
                    simulation = try Simulation(snapshot: initial, seed: seed)
                } catch {
                    shared.logger.error("restored layout rejected (\(error)); starting empty")
                }
            }
            var runner = Runner(simulation: simulation, shared: shared, keeper: keeper, waker: waker)
            runner.run(until: { self.stopRequested.load(ordering: .acquiring) }, started: { published.signal() })
            runner.keeper?.close(runner.state.simulation)
            finished.signal()
        }
        thread.name = "simulation"
        thread.start()
        published.wait()
    }

    /// Stops stepping, writes the state one last time and waits for the thread to end.
    func stop() {
        stopRequested.store(true, ordering: .releasing)
        shared.commands.interrupt()
        finished.wait()
    }
}

/// The loop's state, confined to the simulation thread: the layout, and what publishing it
/// takes (the frame encoder, the frame serial, step timings, the state file's keeper).
private struct Runner {
    var state: LayoutState
    let shared: SimulationLoop.Shared
    let waker: ServiceWaker
    var keeper: StateKeeper?
    var pacer = TickPacer()
    var encoder = FrameEncoder()
    var timings = TickTimings()
    var frameSerial = 0

    init(simulation: Simulation, shared: SimulationLoop.Shared, keeper: StateKeeper?, waker: ServiceWaker) {
        state = LayoutState(simulation: simulation, limits: shared.limits)
        self.shared = shared
        self.keeper = keeper
        self.waker = waker
    }

    mutating func run(until stopped: () -> Bool, started: () -> Void) {
        publishChanges()
        started()
        keeper?.start(state.simulation)
        while !stopped() {
            pacer.wait(stepping: state.isStepping, tickRate: state.parameters.tickRate, on: shared.commands, unless: stopped)
            if stopped() { break }
            applyQueuedCommands()
            step()
            publishChanges()
            keeper?.saveIfDue(state.simulation)
        }
    }

    /// Applies every command waiting, in order; a rejected one goes back to its client.
    private mutating func applyQueuedCommands() {
        // A local copy, so the id reservation can use it while `state` changes.
        var keeper = self.keeper
        defer { self.keeper = keeper }
        for queued in shared.commands.drain() {
            do throws(ProtocolError) {
                let events = try state.apply(queued.command, from: queued.client) { count, simulation throws(ProtocolError) in
                    try keeper?.reserve(count, for: simulation)
                }
                if !events.isEmpty { keeper?.changed() }
                publish(events)
            } catch {
                var error = error
                error.ref = queued.ref
                queued.reject(error)
            }
        }
    }

    /// One step when the layout moves, timed.
    private mutating func step() {
        guard state.isStepping else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        let events = state.step()
        timings.record(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        keeper?.changed()
        publish(events)
    }

    private func publish(_ events: [LayoutEvent]) {
        for event in events { shared.bus.publish(event) }
    }

    /// The frame (when cells moved, joined or left) and the status, then wakes the service thread.
    private mutating func publishChanges() {
        let (changes, pinned) = state.takeChanges()
        guard !changes.isEmpty else { return }
        if changes.needsFrame {
            let frame = encoder.encode(state.simulation, owners: state.ownership.compact(to: state.simulation.ids),
                                       at: LayoutEvent.now())
            frameSerial += 1
            shared.frames.publish(PublishedFrame(serial: frameSerial, frame: frame))
        }
        publishStatus(pinned: pinned)
        waker.wake()
    }

    private func publishStatus(pinned: [CellID]?) {
        let simulation = state.simulation
        let report = simulation.lastReport
        let frameBytes = shared.frames.current?.withoutIDs.count ?? 0
        shared.status.update { status in
            if let pinned { status.pinned = pinned }
            status.parameters = simulation.parameters
            status.tick = simulation.tick
            status.settled = state.settled
            status.cells = simulation.count
            status.version = simulation.version
            status.tickMs = timings.mean
            status.tickMsP99 = timings.p99
            status.frameBytes = frameBytes
            status.maxMove = report.maxMove
            status.totalMove = report.totalMove
        }
    }
}
