import EventBus
import ForceLayout

/// The answers to `history` and `moment` (docs/protocol.md, "History").
package enum HistoryMessages {
    /// `{"type":"history","from":…,"to":…,"events":[…],"more":…}`: the events as `event`
    /// messages carry them, their bulky arrays replaced by their lengths (`n`).
    package static func history(_ events: [Envelope<LayoutEvent>], more: Bool, from: Int?, to: Int, ref: String?) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 96 + events.count * 96)
        writer.raw("{\"type\":\"history\"")
        if let ref { writer.member("ref", ref) }
        if let from { writer.member("from", from) } else { writer.raw(",\"from\":null") }
        writer.member("to", to)
        writer.raw(",\"events\":")
        writer.array(events) { writer, envelope in summary(envelope, into: &writer) }
        writer.member("more", more)
        writer.raw("}")
        return writer.bytes
    }

    /// One event in brief: `seq`, `kind`, `by`, `tick`, `at`, its small members, and `n`.
    static func summary(_ envelope: Envelope<LayoutEvent>, into writer: inout JSONWriter) {
        let event = envelope.event
        writer.raw("{\"seq\":")
        writer.integer(envelope.seq)
        LayoutEvent.writeHead(kind: event.kind, by: event.by, tick: event.tick, at: event.at, undo: event.undo, into: &writer)
        LayoutEvent.write(event.detail, brief: true, into: &writer)
        writer.raw("}")
    }

    /// `{"type":"moment",…}`: the room at `moment.at` (its data left out when the client has
    /// it: `have` equals the moment's `dataSeq`; as the events since `have` when `since` has
    /// them: `HistoryLog.dataEvents`; as what takes the client's later data back to it when
    /// `patch` is given: `MomentPatch`). `cache`: where the data columns are kept for the next
    /// moment of the same `dataSeq` (`MomentCache.dataColumns`).
    package static func moment(_ moment: HistoryLog.Moment, have: UInt64?, since: [Envelope<LayoutEvent>]? = nil,
                               patch: MomentPatch? = nil, ref: String?, cache: inout MomentCache) -> [UInt8] {
        let state = moment.state
        let data: [UInt8]?
        if have == state.dataSeq {
            data = nil
        } else if let have, let since {
            data = changes(since: have, since)
        } else if let have, let patch {
            var writer = JSONWriter(reservingCapacity: 256 + 64 * (patch.cells.count + patch.links.count))
            writer.member("base", have)
            patch.write(into: &writer)
            data = writer.bytes
        } else {
            data = cache.dataColumns(of: state)
        }
        return self.moment(moment, ref: ref, columns: data)
    }

    /// `,"base":HAVE,"since":[…]`: the data's changes since the client's, each event as its
    /// `event` message has it (but `type`).
    static func changes(since have: UInt64, _ events: [Envelope<LayoutEvent>]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 32 + events.reduce(0) { $0 + $1.event.replayBytes })
        writer.member("base", have)
        writer.raw(",\"since\":")
        writer.array(events) { writer, envelope in
            writer.raw("{\"seq\":")
            writer.integer(envelope.seq)
            writer.raw(envelope.event.encodedTail)
        }
        return writer.bytes
    }

    /// The same, the data columns written afresh (a moment of a relayed room's history, read
    /// from Redis for each request).
    package static func moment(_ moment: HistoryLog.Moment, have: UInt64?, ref: String?) -> [UInt8] {
        self.moment(moment, ref: ref, columns: have == moment.state.dataSeq ? nil : dataColumns(of: moment.state))
    }

    /// `,"cells":{…},"links":{…}`: the moment's cells, their data and links, in the `data`
    /// message's columns.
    static func dataColumns(of state: MomentState) -> [UInt8] {
        var records: [CellRecordData] = []
        state.forEachCell { _, record in records.append(record) }
        var writer = JSONWriter(reservingCapacity: 64 + records.count * 24)
        var attrs = LinkAttributes()
        var links: [Link] = []
        state.forEachLink { ends, record in
            links.append(record.link)
            if let linkAttrs = record.attrs { attrs[ends.source, ends.target] = linkAttrs }
        }
        writer.raw(",")
        DataMessage.writeColumns(records: records, links: links, linkAttrs: attrs, into: &writer)
        return writer.bytes
    }

    private static func moment(_ moment: HistoryLog.Moment, ref: String?, columns: [UInt8]?) -> [UInt8] {
        let state = moment.state
        let placed = moment.placed
        var writer = JSONWriter(reservingCapacity: 256 + placed.count * 24 + (columns?.count ?? 0))
        writer.raw("{\"type\":\"moment\"")
        if let ref { writer.member("ref", ref) }
        writer.member("at", moment.at)
        if moment.clamped { writer.member("clamped", true) }
        writer.member("seq", state.seq)
        writer.member("tick", state.tick)
        if let keyframe = moment.keyframe { writer.member("keyframe", keyframe.at) }
        writer.raw(",\"ids\":")
        writer.integers(placed.map(\.id))
        writer.raw(",\"x\":")
        writer.array(placed) { $0.position($1.x) }
        writer.raw(",\"y\":")
        writer.array(placed) { $0.position($1.y) }
        writer.raw(",\"pinned\":")
        writer.integers(placed.lazy.filter { state.pins[$0.id] != nil }.map(\.id))
        writer.raw(",\"owners\":")
        var ownership = Ownership()
        state.forEachCellID { id in
            if let owner = state.owners[id] { ownership.record(id, by: owner) }
        }
        FrameEncoder.writeOwners(ownership.runs, into: &writer)
        writer.raw(",\"params\":")
        ServerMessages.writeParameters(state.parameters, into: &writer)
        writer.member("dataSeq", state.dataSeq)
        if let columns { writer.raw(columns) }
        writer.raw("}")
        return writer.bytes
    }
}
