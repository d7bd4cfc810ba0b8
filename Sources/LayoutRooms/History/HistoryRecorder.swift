import EventBus
import ForceLayout
import LayoutCore

/// What a room's turn writes to its history (`RoomHistory`): a checkpoint when the history
/// starts or its segment is full, each event (but `joined`/`left`), a keyframe of the positions
/// every `keyframeInterval` while the layout moves, one when it settles, and one before a change
/// that removes cells (so the moment just before it shows them where they were: `keyframe(before:)`). Lives in the
/// room's `RoomLayout`: one thread at a time.
struct HistoryRecorder {
    /// ms between keyframes while the layout moves.
    static let keyframeInterval = 5000
    private var started = false
    private var lastKeyframe: (at: Int, tick: Int, version: Int) = (0, -1, -1)
    /// The ids of the last keyframe and the membership version they are of: shared by the next
    /// keyframes while it does not change.
    private var ids: (version: Int, ids: [CellID]) = (-1, [])
    /// The last event recorded.
    private var seq: UInt64 = 0

    /// The history starts (the layout was installed): its first checkpoint is the room as it is.
    mutating func start(_ state: LayoutState, in history: RoomHistory, seq: UInt64) {
        guard !started, !history.isOff else { return }
        started = true
        self.seq = seq
        checkpoint(state, in: history)
    }

    mutating func record(_ envelope: Envelope<LayoutEvent>, _ state: LayoutState, in history: RoomHistory) {
        guard started else { return }
        switch envelope.event.kind {
        case .joined, .left: return
        default: break
        }
        seq = envelope.seq
        // A restore's event opens a segment whose checkpoint is the restored room (it
        // includes the event), as does an event that finds the segment full.
        // So does the first event after the room was quiet for longer than the history keeps.
        if envelope.event.kind == .restored || history.wantsCheckpoint(at: envelope.event.at) {
            checkpoint(state, in: history)
        }
        history.append(envelope)
        if envelope.event.kind == .settled { keyframe(state, in: history) }
    }

    /// A keyframe now (when the layout settles, before a change that removes cells).
    mutating func keyframe(_ state: LayoutState, in history: RoomHistory, now: Int = LayoutEvent.now()) {
        guard started else { return }
        let simulation = state.simulation
        // Nothing moved or joined since the last one: it would say the same.
        guard lastKeyframe.tick != simulation.tick || lastKeyframe.version != simulation.version else { return }
        if ids.version != simulation.version { ids = (simulation.version, simulation.ids) }
        let frame = Keyframe(of: simulation, at: now, seq: seq, ids: ids.ids)
        lastKeyframe = (now, simulation.tick, simulation.version)
        history.append(frame)
    }

    /// Before `command`, a change that removes cells: a keyframe, so the moment just before it
    /// shows them where they were. Always before a `clear`, a `delete` or a `restore` (rare, and
    /// everything goes); before a `remove` or an `undo` only when the last keyframe is
    /// `removeSpacing` old: a client removing a few cells many times a second would otherwise
    /// write a whole keyframe each time (80 kB at 10k cells with their ids, 12 MB a minute at 2.5
    /// a second), while the last one, under a second old, shows them about where they were.
    mutating func keyframe(before command: LayoutCommand, _ state: LayoutState, in history: RoomHistory,
                           now: Int = LayoutEvent.now()) {
        switch command {
        case .remove, .removeNewest, .undo:
            guard now - lastKeyframe.at >= Self.removeSpacing || now < lastKeyframe.at else { return }
        default:
            break
        }
        keyframe(state, in: history, now: now)
    }

    /// ms a `remove` waits since the last keyframe before it writes one.
    static let removeSpacing = 1000

    /// After a frame: a keyframe when the last is `keyframeInterval` old and the layout moved.
    mutating func framed(_ state: LayoutState, in history: RoomHistory) {
        guard started else { return }
        let now = LayoutEvent.now()
        guard now - lastKeyframe.at >= Self.keyframeInterval || now < lastKeyframe.at else { return }
        keyframe(state, in: history, now: now)
    }

    private mutating func checkpoint(_ state: LayoutState, in history: RoomHistory) {
        let simulation = state.simulation
        let saved = state.saved(reservation: simulation.nextID, settled: state.settled)
        let point = Checkpoint(at: LayoutEvent.now(), tick: simulation.tick, seq: seq, state: saved)
        history.start(point)
        lastKeyframe = (point.at, simulation.tick, simulation.version)
    }
}
