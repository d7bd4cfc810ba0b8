import EventBus
import ForceLayout
@testable import LayoutCore

/// What the history tests build their logs from: checkpoints of small layouts, events and
/// keyframes filed at chosen times (ms), so the tests set the clock instead of reading it.
enum HistoryFixtures {
    /// A layout of `cells` cells (ids 1...cells) at rest, its changes taken.
    static func state(cells: Int = 0, seed: UInt64 = 3, limits: Limits = Limits(), budget: CellBudget? = nil) -> LayoutState {
        let simulation = Simulation(seed: seed)
        simulation.add(count: cells, spawn: .random)
        budget?.force(cells)
        var state = LayoutState(simulation: simulation, limits: limits, budget: budget)
        _ = state.takeChanges()
        return state
    }

    /// The room as `state` holds it, filed at `at` as of event `seq`.
    static func checkpoint(_ state: LayoutState, at: Int, seq: UInt64 = 0) -> Checkpoint {
        Checkpoint(at: at, tick: state.simulation.tick, seq: seq,
                   state: state.saved(reservation: state.simulation.nextID, settled: state.settled))
    }

    static func envelope(_ seq: UInt64, _ kind: EventKind, _ detail: LayoutEvent.Detail = .none,
                         by: String? = "c1", at: Int, tick: Int = 0) -> Envelope<LayoutEvent> {
        Envelope(seq: seq, event: LayoutEvent(kind: kind, by: by, tick: tick, detail: detail, at: at))
    }

    /// A keyframe of `positions` (id, x, y), as the recorder takes one of the engine.
    static func keyframe(at: Int, seq: UInt64 = 0, _ positions: [(CellID, Double, Double)]) -> Keyframe {
        let xs = positions.map(\.1), ys = positions.map(\.2)
        let box = FrameBox(xs: xs, ys: ys)
        var quantized = [UInt16](repeating: 0, count: positions.count * 2)
        quantized.withUnsafeMutableBytes { buffer in
            BinaryFrameEncoder.writePositions(xs: xs, ys: ys, box: box, into: buffer)
        }
        return Keyframe(at: at, tick: 0, seq: seq, ids: positions.map(\.0), box: box, quantized: quantized)
    }

    /// The largest error a keyframe's quantization makes over `box` (half a step, and a bit).
    static func tolerance(_ box: FrameBox) -> Double {
        max(Double(box.maxX - box.minX), Double(box.maxY - box.minY)) / 65535 + 1e-9
    }

    /// Applies `command` to `state` and files its events in `log`, numbered on from `seq`.
    @discardableResult
    static func apply(_ command: LayoutCommand, to state: inout LayoutState, by client: String = "c1",
                      log: inout HistoryLog, seq: inout UInt64, at: Int) throws -> [LayoutEvent] {
        let events = try state.apply(command, from: client)
        for event in events {
            seq += 1
            log.append(Envelope(seq: seq, event: LayoutEvent(kind: event.kind, by: event.by, tick: event.tick,
                                                             detail: event.detail, at: at)))
        }
        return events
    }
}
