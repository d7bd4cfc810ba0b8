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
            runner.keeper?.close(simulation)
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

/// The loop's state, confined to the simulation thread.
private struct Runner {
    let simulation: Simulation
    let shared: SimulationLoop.Shared
    let waker: ServiceWaker
    var settled: Bool
    var timings = TickTimings()
    var frameSerial = 0
    var idsCache: (version: Int, fragment: [UInt8]) = (-1, [])
    var ownership = Ownership()
    /// The pinned set changed since `hello`'s copy of it was last taken.
    var pinsChanged = true
    var keeper: StateKeeper?

    init(simulation: Simulation, shared: SimulationLoop.Shared, keeper: StateKeeper?, waker: ServiceWaker) {
        self.simulation = simulation
        self.shared = shared
        self.keeper = keeper
        self.waker = waker
        settled = simulation.count == 0
    }

    mutating func run(until stopped: () -> Bool, started: () -> Void) {
        publishFrame()
        publishStatus()
        waker.wake()
        started()
        keeper?.start(simulation)
        var nextTick = DispatchTime.now()
        while !stopped() {
            let stepping = !settled && !simulation.parameters.paused
            if stepping {
                while !stopped() && DispatchTime.now() < nextTick { shared.commands.wait(until: nextTick) }
            } else {
                shared.commands.wait(until: .now() + .milliseconds(250))
            }
            if stopped() { break }

            var published = false
            let change = apply(shared.commands.drain())
            if change.any {
                keeper?.changed()
                published = true
                if settled {
                    settled = false
                    publish(.woke, by: nil, .none)
                }
            }
            var moved = change.moved
            if !settled && !simulation.parameters.paused {
                let start = DispatchTime.now().uptimeNanoseconds
                let report = simulation.step()
                timings.record(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                moved = true
                keeper?.changed()
                if report.settled {
                    settled = true
                    publish(.settled, by: nil, .none)
                }
            }
            if moved || change.membership {
                publishFrame()
                published = true
            }
            if published {
                publishStatus()
                waker.wake()
            }
            keeper?.saveIfDue(simulation)

            // Keep the rate; a step slower than the interval is followed at once by the next,
            // never by a full extra interval of waiting.
            let interval = DispatchTimeInterval.nanoseconds(Int(1e9 / simulation.parameters.tickRate))
            let now = DispatchTime.now()
            nextTick = stepping ? max(nextTick + interval, now) : now + interval
        }
    }

    struct Change {
        var membership = false
        var moved = false
        var other = false
        var any: Bool { membership || moved || other }
    }

    private mutating func apply(_ commands: [QueuedCommand]) -> Change {
        var change = Change()
        for queued in commands {
            do throws(ProtocolError) {
                try apply(queued, &change)
            } catch {
                var error = error
                error.ref = queued.ref
                queued.reject(error)
            }
        }
        return change
    }

    private mutating func apply(_ queued: QueuedCommand, _ change: inout Change) throws(ProtocolError) {
        let by = queued.client
        switch queued.command {
        case .add(let count, let spawn):
            let limit = shared.limits.maxCells
            guard simulation.count + count <= limit else {
                throw ProtocolError(.limit, "adding \(count) would pass maxCells (\(limit)): the layout has \(simulation.count)")
            }
            try keeper?.reserve(count, for: simulation)
            let ids = simulation.add(count: count, spawn: spawn)
            ownership.record(ids, by: by)
            change.membership = true
            publish(.added, by: by, .cells(ids))
        case .remove(let ids):
            let removed: [CellID]
            do {
                removed = try simulation.remove(ids: ids)
            } catch {
                throw ProtocolError(.badRequest, Self.describe(error))
            }
            change.membership = true
            pinsChanged = true
            publish(.removed, by: by, .cells(removed))
        case .removeNewest(let count):
            let removed = simulation.removeNewest(count)
            guard !removed.isEmpty else { return }
            change.membership = true
            pinsChanged = true
            publish(.removed, by: by, .cells(removed))
        case .clear:
            let removed = simulation.clear()
            guard !removed.isEmpty else { return }
            change.membership = true
            pinsChanged = true
            publish(.cleared, by: by, .cells(removed))
        case .params(let parameterChange):
            let (parameters, changed) = parameterChange.applied(to: simulation.parameters)
            guard !changed.isEmpty else { return }
            simulation.parameters = parameters
            change.other = true
            publish(.params, by: by, .params(parameters, changed: changed))
        case .pin(let id, let x, let y):
            do {
                try simulation.pin(id, x: x, y: y)
            } catch {
                throw ProtocolError(.badRequest, Self.describe(error))
            }
            change.moved = true
            pinsChanged = true
            publish(.pinned, by: by, .pinned(id: id, x: x, y: y))
        case .unpin(let id):
            guard simulation.contains(id) else { throw ProtocolError(.badRequest, "unknown cell id \(id)") }
            guard simulation.isPinned(id) else { return }
            do {
                try simulation.unpin(id)
            } catch {
                throw ProtocolError(.badRequest, Self.describe(error))
            }
            change.other = true
            pinsChanged = true
            publish(.unpinned, by: by, .unpinned(id: id))
        }
    }

    private static func describe(_ error: LayoutError) -> String {
        switch error {
        case .unknownCell(let id): return "unknown cell id \(id)"
        case .invalidPosition: return "position must be finite"
        }
    }

    private func publish(_ kind: EventKind, by: String?, _ detail: LayoutEvent.Detail) {
        shared.bus.publish(LayoutEvent(kind: kind, by: by, tick: simulation.tick, detail: detail))
    }

    private mutating func publishFrame() {
        if idsCache.version != simulation.version {
            let owners = ownership.compact(to: simulation.ids)
            idsCache = (simulation.version, FramePair.idsFragment(for: simulation.ids, owners: owners))
        }
        let pair = FramePair(tick: simulation.tick, version: simulation.version,
                             at: Int((Date().timeIntervalSince1970 * 1000).rounded()), idsFragment: idsCache.fragment,
                             xs: simulation.xs, ys: simulation.ys)
        frameSerial += 1
        shared.frames.publish(PublishedFrame(
            serial: frameSerial, version: simulation.version,
            withIDs: OutgoingMessage(parts: [pair.head, pair.idsFragment, pair.body]),
            withoutIDs: OutgoingMessage(parts: [pair.head, pair.body])))
    }

    private mutating func publishStatus() {
        let report = simulation.lastReport
        let frameBytes = shared.frames.current?.withoutIDs.count ?? 0
        let pinned = pinsChanged ? simulation.pinnedIDs : nil
        pinsChanged = false
        shared.status.update { status in
            if let pinned { status.pinned = pinned }
            status.parameters = simulation.parameters
            status.tick = simulation.tick
            status.settled = settled
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
