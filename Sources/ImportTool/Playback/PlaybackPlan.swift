import EventBus
import ForceLayout
import LayoutCore

/// One message of a playback, in the recording's cell ids: `PlaybackSession` maps them to the
/// room's when it sends it (the room hands out ids of its own, in its `added`).
struct PlaybackMessage: Equatable, Sendable {
    var command: LayoutCommand
    /// The event it is answered by (every message of a plan changes something, so one comes).
    var answer: EventKind
    /// ms after the recording's start it is due.
    var offset: Int
    /// The recording's ids of the cells it adds, in order: its `added` gives their ids here.
    var adds: [CellID] = []
}

/// What playing a recording into an empty room sends, in order (`PlaybackMessage`s), worked out
/// from the recording alone: the room paused first (`params` with `paused:true`, and the
/// checkpoint's parameters) so the cells stay where the recording puts them; its first checkpoint
/// as cells (at their places), links and pins; then each event as the change that makes it
/// (`add`, `remove`, `clear`, `update`, `link`, `unlink`, `params`, `pin`, `unpin`) at its time,
/// each keyframe as `update`s of the cells' places, and a later checkpoint (a restore opens one)
/// as the changes from the room as played to it; at the end `paused` as the recording left it.
/// It follows the recorded room (`MomentState`) as it goes, so it sends only what changes
/// something (each message is answered by its event), and splits what one event did into
/// messages within the server's limits (`maxAddPerMessage`, `maxMessageBytes`). Pure.
struct PlaybackPlan: Sendable {
    private(set) var messages: [PlaybackMessage] = []
    private let limits: Limits
    /// The recorded room as played so far.
    private var model: MomentState
    /// The parameters the room has now: the recorded ones, but paused.
    private var room: Parameters
    /// Where each cell was last put (by an add, an update or a pin): a keyframe that leaves it
    /// there sends nothing for it.
    private var placed: [CellID: (x: Double, y: Double)] = [:]
    private var offset = 0
    private let start: Int

    /// `roomParameters`: the room's now (its `hello`); `limits`: the server's.
    init(_ recording: Recording, roomParameters: Parameters, limits: Limits) {
        guard case .checkpoint(let first)? = recording.records.first else { preconditionFailure("a Recording starts with a checkpoint") }
        self.limits = limits
        room = roomParameters
        start = first.at
        model = MomentState(checkpoint: Self.empty(roomParameters))
        let seeds = Self.seeds(recording.records)
        become(MomentState(checkpoint: first))
        var checkpointSeq = first.seq
        for (index, record) in recording.records.enumerated().dropFirst() {
            switch record {
            case .checkpoint(let point):
                advance(to: point.at)
                become(MomentState(checkpoint: point))
                checkpointSeq = point.seq
            case .event(let envelope):
                // A checkpoint includes the events up to its seq (a restore's own among them).
                guard envelope.seq > checkpointSeq else { continue }
                advance(to: envelope.event.at)
                play(envelope.event, seeds: seeds[index] ?? [:])
                model.apply(envelope)
                model.compact()
            case .keyframe(let frame):
                advance(to: frame.at)
                place(frame)
            }
        }
        if !model.parameters.paused {
            var change = ParameterChange()
            change.paused = false
            room.paused = false
            append(.params(change), answer: .params)
        }
    }

    /// The recording's duration, ms from its checkpoint to its last record.
    var duration: Int { offset }

    private mutating func advance(to at: Int) {
        offset = max(offset, at - start)
    }

    private mutating func append(_ command: LayoutCommand, answer: EventKind, adds: [CellID] = []) {
        messages.append(PlaybackMessage(command: command, answer: answer, offset: offset, adds: adds))
    }

    // MARK: events

    private mutating func play(_ event: LayoutEvent, seeds: [CellID: (x: Double, y: Double)]) {
        switch (event.kind, event.detail) {
        case (.added, .added(let ids, let data)):
            let given = Dictionary(data.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            add(ids.map { ($0, given[$0] ?? CellRecordData(id: $0, data: CellData(), radius: nil), seeds[$0]) })
        case (.added, .cells(let ids)):
            add(ids.map { ($0, CellRecordData(id: $0, data: CellData(), radius: nil), seeds[$0]) })
        case (.removed, .cells(let ids)):
            remove(ids.filter { model.cells[$0] != nil })
        case (.cleared, _), (.deleted, _):
            guard !model.cells.isEmpty else { return }
            append(.clear, answer: .cleared)
            placed = [:]
        case (_, .updated(let records)):
            let data = records.map { record in
                var data = record
                data.place = nil
                return data
            }
            update(data.filter { record in model.cells[record.id].map { $0 != record } ?? false })
            // An update that moved a pinned cell moved its pin.
            for record in records {
                guard let place = record.place, model.cells[record.id] != nil, model.pins[record.id] != nil else { continue }
                pin(record.id, place.x, place.y)
            }
        case (_, .linked(let records)):
            link(records.filter { model.cells[$0.link.source] != nil && model.cells[$0.link.target] != nil
                    && model.links[Self.ends($0.link.source, $0.link.target)] == nil })
        case (_, .unlinked(let ends)):
            unlink(ends.filter { model.links[Self.ends($0.source, $0.target)] != nil })
        case (_, .params(let parameters, _)):
            params(parameters)
        case (_, .pinned(let id, let x, let y)):
            guard model.cells[id] != nil else { return }
            pin(id, x, y)
        case (_, .unpinned(let id)):
            if model.pins[id] != nil { append(.unpin(id: id), answer: .unpinned) }
        case (_, .failover(_, _, let pinned, let parameters)):
            let kept = Set(pinned)
            for id in model.pins.keys.sorted() where !kept.contains(id) { append(.unpin(id: id), answer: .unpinned) }
            if let parameters { params(parameters) }
        default:
            // settled, woke, joined, left, saved, unsaved, access: nothing a room is told to do;
            // restored: the checkpoint before it in the file holds the room it made.
            break
        }
    }

    /// A keyframe: every unpinned cell it shows is put at its place (those left where they were
    /// last put send nothing).
    private mutating func place(_ frame: Keyframe) {
        let positions = frame.positions()
        var edits: [CellEdit] = []
        for id in frame.ids where model.cells[id] != nil && model.pins[id] == nil {
            guard let position = positions[id].map(Self.rounded) else { continue }
            if let last = placed[id], last == position { continue }
            var edit = CellEdit(id: id)
            (edit.x, edit.y) = (position.x, position.y)
            edits.append(edit)
            placed[id] = position
        }
        for batch in batches(edits, { .update($0) }) { append(.update(batch), answer: .updated) }
    }

    // MARK: becoming a checkpoint

    /// The changes from the room as played to `target` (a checkpoint's room), then `target` is
    /// the room as played.
    private mutating func become(_ target: MomentState) {
        params(target.parameters)
        remove(model.cells.keys.filter { target.cells[$0] == nil })
        unlink(model.links.filter { ends, record in
            target.cells[ends.source] != nil && target.cells[ends.target] != nil && target.links[ends] != record
        }.map(\.key))
        add(target.cells.values.filter { model.cells[$0.id] == nil }.map { record in
            (record.id, record, target.pins[record.id] ?? target.positions[record.id])
        })
        update(target.cells.values.filter { record in model.cells[record.id].map { $0 != record } ?? false })
        link(target.links.filter { ends, record in model.links[ends] != record }.map(\.value))
        for id in model.pins.keys.sorted() where target.pins[id] == nil && target.cells[id] != nil {
            append(.unpin(id: id), answer: .unpinned)
        }
        for id in target.cells.keys {
            guard let held = target.pins[id] else { continue }
            if let was = model.pins[id], was == held { continue }
            pin(id, held.x, held.y)
        }
        var edits: [CellEdit] = []
        for id in target.cells.keys where model.cells[id] != nil && target.pins[id] == nil {
            guard let position = target.positions[id].map(Self.rounded), placed[id].map({ $0 != position }) ?? true else { continue }
            var edit = CellEdit(id: id)
            (edit.x, edit.y) = (position.x, position.y)
            edits.append(edit)
            placed[id] = position
        }
        for batch in batches(edits, { .update($0) }) { append(.update(batch), answer: .updated) }
        model = target
    }

    // MARK: changes

    /// `recorded` as the room's parameters, but paused: what differs from the room's now.
    private mutating func params(_ recorded: Parameters) {
        var target = recorded
        target.paused = true
        let change = ParameterChange(from: room, to: target)
        guard !change.isEmpty else { return }
        room = target
        append(.params(change), answer: .params)
    }

    private mutating func add(_ cells: [(id: CellID, record: CellRecordData, at: (x: Double, y: Double)?)]) {
        let news = cells.map { cell in
            let at = cell.at.map(Self.rounded)
            if let at { placed[cell.id] = at }
            return (cell.id, NewCell(seed: CellSeed(x: at?.x, y: at?.y, radius: cell.record.radius), data: cell.record.data))
        }
        for batch in batches(news, { .addCells($0.map(\.1), spawn: .random) }) {
            append(.addCells(batch.map(\.1), spawn: .random), answer: .added, adds: batch.map(\.0))
        }
    }

    private mutating func remove(_ ids: [CellID]) {
        for id in ids { placed[id] = nil }
        for batch in batches(ids, { .remove(ids: $0) }) { append(.remove(ids: batch), answer: .removed) }
    }

    /// Each record's data and radius set whole (a field it lacks put back to its default).
    private mutating func update(_ records: [CellRecordData]) {
        let edits = records.map(Self.edit)
        for batch in batches(edits, { .update($0) }) { append(.update(batch), answer: .updated) }
    }

    private mutating func link(_ records: [LinkRecord]) {
        for batch in batches(records, { .link($0) }) { append(.link(batch), answer: .linked) }
    }

    private mutating func unlink(_ ends: [LinkEnds]) {
        for batch in batches(ends, { .unlink($0) }) { append(.unlink(batch), answer: .unlinked) }
    }

    private mutating func pin(_ id: CellID, _ x: Double, _ y: Double) {
        append(.pin(id: id, x: x, y: y), answer: .pinned)
        placed[id] = (x, y)
    }

    static func edit(_ record: CellRecordData) -> CellEdit {
        var edit = CellEdit(id: record.id)
        edit.label = record.data.label.map { .set($0) } ?? .reset
        edit.color = record.data.color.map { .set($0) } ?? .reset
        edit.group = record.data.group.map { .set($0) } ?? .reset
        edit.key = record.data.key.map { .set($0) } ?? .reset
        edit.attrs = record.data.attrs.map { .set($0) } ?? .reset
        edit.radius = record.radius.map { .set($0) } ?? .reset
        return edit
    }

    // MARK: sizes

    /// Bytes a message's `ref` and slack take beside its command (`play-N`).
    static let refAllowance = 40

    /// `items` in runs that each make one message within the server's limits (`make` writes a
    /// run's command): at most `maxAddPerMessage` items, at most `maxMessageBytes` bytes.
    func batches<Item>(_ items: [Item], _ make: ([Item]) -> LayoutCommand) -> [[Item]] {
        guard !items.isEmpty else { return [] }
        let empty = Self.size(make([]))
        var runs: [[Item]] = [], run: [Item] = []
        var bytes = empty + Self.refAllowance
        for item in items {
            let size = Self.size(make([item])) - empty + 1
            if !run.isEmpty, run.count >= limits.maxAddPerMessage || bytes + size > limits.maxMessageBytes {
                runs.append(run)
                run = []
                bytes = empty + Self.refAllowance
            }
            run.append(item)
            bytes += size
        }
        runs.append(run)
        return runs
    }

    private static func size(_ command: LayoutCommand) -> Int {
        ClientRequest(.layout(command)).encoded.count
    }

    /// A tenth of a thousandth: well within a keyframe's quantization, and short on the wire.
    static func rounded(_ position: (x: Double, y: Double)) -> (x: Double, y: Double) {
        ((position.x * 10000).rounded() / 10000, (position.y * 10000).rounded() / 10000)
    }

    // MARK: reading ahead

    /// Where each added cell is first seen (the first keyframe after its `added` that shows it),
    /// by the index of that event's record: it is added there, not somewhere at random.
    static func seeds(_ records: [HistoryFileFormat.Record]) -> [Int: [CellID: (x: Double, y: Double)]] {
        var seeds: [Int: [CellID: (x: Double, y: Double)]] = [:]
        var waiting: [CellID: Int] = [:]
        for (index, record) in records.enumerated() {
            switch record {
            case .event(let envelope):
                switch (envelope.event.kind, envelope.event.detail) {
                case (.added, .added(let ids, _)), (.added, .cells(let ids)):
                    for id in ids { waiting[id] = index }
                default: break
                }
            case .keyframe(let frame) where !waiting.isEmpty:
                let positions = frame.positions()
                for (id, at) in waiting {
                    guard let position = positions[id] else { continue }
                    seeds[at, default: [:]][id] = position
                    waiting[id] = nil
                }
            default: break
            }
        }
        return seeds
    }

    /// A link's key in `MomentState.links` (its smaller id first).
    static func ends(_ a: CellID, _ b: CellID) -> LinkEnds { LinkEnds(source: min(a, b), target: max(a, b)) }

    /// A room with nothing in it, of `parameters`.
    static func empty(_ parameters: Parameters) -> Checkpoint {
        let layout = LayoutSnapshot(parameters: parameters, nextID: 1, cells: [])
        return Checkpoint(at: 0, tick: 0, seq: 0, state: SavedState(layout: layout, reservation: 1))
    }
}
