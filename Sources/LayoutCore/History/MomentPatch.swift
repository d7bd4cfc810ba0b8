import EventBus
import ForceLayout

/// What takes a client's data, as of a later moment of the room, back to an earlier moment's
/// (`state`): the cells and links that the events after it (through the client's `have`)
/// named, each as `state` has it or gone, and the links of those cells that `state` has (a
/// cell removed since lost its links with it). A handle dragged back from now gets these
/// instead of the whole data at every moment. nil when an event does not say what it changed
/// (a relayed one) or they name more than `limit` cells or links: the whole data is then as
/// small. Pure.
package struct MomentPatch: Equatable, Sendable {
    /// The most events a patch is made from (`HistoryLog.dataEvents`' limit), and the most
    /// cells or links it names.
    package static let most = 4096
    /// Cells named since, in `state`: their data then, ascending.
    package private(set) var cells: [CellRecordData] = []
    /// Cells named since, not in `state`, ascending.
    package private(set) var gone: [CellID] = []
    /// Links of `state` named since or of a cell named since, in `state`'s order.
    package private(set) var links: [LinkRecord] = []
    /// Links named since that `state` does not have, by their ends (smaller id first), ascending.
    package private(set) var unlinked: [LinkEnds] = []

    package init?(undoing events: [Envelope<LayoutEvent>], to state: MomentState, limit: Int = MomentPatch.most) {
        var named = Set<CellID>()
        var namedLinks = Set<LinkEnds>()
        for envelope in events where envelope.event.kind.changesCellData {
            switch envelope.event.detail {
            case .cells(let ids), .added(let ids, _): named.formUnion(ids)
            case .updated(let records): named.formUnion(records.map(\.id))
            case .linked(let records): namedLinks.formUnion(records.map { MomentState.ends($0.link.source, $0.link.target) })
            case .unlinked(let ends): namedLinks.formUnion(ends.map { MomentState.ends($0.source, $0.target) })
            default: return nil
            }
            guard named.count <= limit, namedLinks.count <= limit else { return nil }
        }
        for id in named.sorted() {
            if let record = state.record(id) { cells.append(record) } else { gone.append(id) }
        }
        var links: [LinkRecord] = []
        state.forEachLink { ends, record in
            if namedLinks.contains(ends) || named.contains(ends.source) || named.contains(ends.target) { links.append(record) }
        }
        guard links.count <= limit else { return nil }
        self.links = links
        unlinked = namedLinks.filter { !state.linked($0.source, $0.target) }
            .sorted { ($0.source, $0.target) < ($1.source, $1.target) }
    }

    /// `,"patch":{"cells":{…},"links":{…},"gone":[…],"unlinked":{"source":[…],"target":[…]}}`:
    /// cells and links in the `data` message's columns.
    func write(into writer: inout JSONWriter) {
        var attrs = LinkAttributes()
        for record in links where record.attrs != nil { attrs[record.link.source, record.link.target] = record.attrs }
        writer.raw(",\"patch\":{")
        DataMessage.writeColumns(records: cells, links: links.map(\.link), linkAttrs: attrs, into: &writer)
        writer.raw(",\"gone\":")
        writer.integers(gone)
        writer.raw(",\"unlinked\":{\"source\":")
        writer.integers(unlinked.map(\.source))
        writer.raw(",\"target\":")
        writer.integers(unlinked.map(\.target))
        writer.raw("}}")
    }
}
