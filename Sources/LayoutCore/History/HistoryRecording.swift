import EventBus
import ForceLayout

/// A span of a room's history as a `.flhistory` file (`GET /export/NAME.flhistory`,
/// docs/history-format.md), to be played back into another room (`forcelayout import`). It
/// starts whole: a checkpoint of the moment `from` (the room then, rebuilt as `moment` rebuilds
/// it, its cells where that moment places them), then every event and keyframe filed in
/// (`from`, `to`] in the order they happened, with the checkpoints of the segments that open in
/// the span (a restore opens one: its `restored` event carries no data a reader keeps). It ends
/// whole too: a last keyframe of the moment `to` when events came after the last keyframe (cells
/// added since are placed where that moment places them). Pure.
extension HistoryLog {
    /// nil: nothing is kept.
    package func recording(from: Int?, to: Int?) -> [UInt8]? {
        guard let oldest = oldestAt, let newest = newestAt else { return nil }
        let end = min(to ?? newest, newest)
        let start = min(max(from ?? oldest, oldest), end)
        guard let first = moment(at: start) else { return nil }
        let saved = first.state.snapshot(placed: first.placed, floor: first.state.nextID)
        var bytes = HistoryFileFormat.header
        bytes += HistoryFileFormat.checkpoint(Checkpoint(at: first.at, tick: first.state.tick, seq: first.state.seq, state: saved))
        var writer = SpanWriter(ids: saved.layout.cells.map(\.id), seq: first.state.seq, at: first.at)
        var index = segments.count - 1
        while index > 0 && segments[index].firstAt > start { index -= 1 }
        for segment in segments[index...] {
            if segment.firstAt > end { break }
            if segment.firstAt > start { writer.checkpoint(segment.checkpoint, into: &bytes) }
            writer.records(of: segment, after: start, through: end, into: &bytes)
        }
        if writer.eventsSinceKeyframe, let last = moment(at: end) {
            let frame = Keyframe(at: max(writer.at, last.at), tick: last.state.tick, seq: last.state.seq, placed: last.placed)
            writer.keyframe(frame, into: &bytes)
        }
        return bytes
    }
}

/// What a recording wrote last: the ids a keyframe without its own takes (docs/history-format.md),
/// the last event, and the latest time.
private struct SpanWriter {
    var ids: [CellID]
    var seq: UInt64
    var at: Int
    var eventsSinceKeyframe = false

    /// A recording carries the room's layout, never its access: the digests of its links stay
    /// on the server (a recording is handed to anyone who may export the room).
    mutating func checkpoint(_ point: Checkpoint, into bytes: inout [UInt8]) {
        var state = point.state
        state.access = .unowned
        bytes += HistoryFileFormat.checkpoint(Checkpoint(at: point.at, tick: point.tick, seq: point.seq, state: state))
        ids = point.state.layout.cells.map(\.id)
        at = max(at, point.at)
    }

    mutating func event(_ envelope: Envelope<LayoutEvent>, filed: Int, into bytes: inout [UInt8]) {
        bytes += HistoryFileFormat.event(envelope)
        seq = envelope.seq
        at = max(at, filed)
        eventsSinceKeyframe = true
    }

    mutating func keyframe(_ frame: Keyframe, into bytes: inout [UInt8]) {
        let withIDs = frame.ids != ids
        bytes += HistoryFileFormat.keyframe(frame, withIDs: withIDs)
        if withIDs { ids = frame.ids }
        at = max(at, frame.at)
        eventsSinceKeyframe = false
    }

    /// The segment's events after `seq` and keyframes after `start`, both filed by `end`, in
    /// the order they happened: a keyframe goes before the events after the last it saw.
    mutating func records(of segment: HistorySegment, after start: Int, through end: Int, into bytes: inout [UInt8]) {
        let events = HistorySegment.count(segment.eventTimes, atOrBefore: end)
        let frames = HistorySegment.count(segment.keyframeTimes, atOrBefore: end)
        var frame = HistorySegment.count(segment.keyframeTimes, atOrBefore: start)
        let floor = seq
        for event in 0..<events where segment.events[event].seq > floor {
            let envelope = segment.events[event]
            while frame < frames, segment.keyframes[frame].seq < envelope.seq {
                keyframe(segment.keyframes[frame], into: &bytes)
                frame += 1
            }
            self.event(envelope, filed: segment.eventTimes[event], into: &bytes)
        }
        while frame < frames {
            keyframe(segment.keyframes[frame], into: &bytes)
            frame += 1
        }
    }
}

extension Keyframe {
    /// Positions given one by one (a moment's `placed`), quantized as a frame's.
    init(at: Int, tick: Int, seq: UInt64, placed: [(id: CellID, x: Double, y: Double)]) {
        let xs = placed.map(\.x), ys = placed.map(\.y)
        let box = FrameBox(xs: xs, ys: ys)
        var quantized = [UInt16](repeating: 0, count: placed.count * 2)
        quantized.withUnsafeMutableBytes { buffer in
            BinaryFrameEncoder.writePositions(xs: xs, ys: ys, box: box, into: buffer)
        }
        self.init(at: at, tick: tick, seq: seq, ids: placed.map(\.id), box: box, quantized: quantized)
    }
}

extension HistoryFileFormat {
    /// A recording's name ends so (`NAME.flhistory`).
    package static let fileExtension = "flhistory"
    /// Bytes of no registered type: a browser saves them as they are.
    package static let contentType = "application/octet-stream"
}
