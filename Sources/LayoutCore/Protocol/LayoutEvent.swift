import EventBus
import ForceLayout
import Foundation

public enum EventKind: String, CaseIterable, Sendable {
    case added, removed, cleared, params, pinned, unpinned, settled, woke, joined, left
    case updated, linked, unlinked
    /// In a cluster: another server took the room over (its owner stopped renewing its lease).
    case failover
    /// The room's state could not be written (a full disk): what was acknowledged since the
    /// last write that reached the disk is not saved; `saved` when a write succeeds again.
    case unsaved, saved
    /// The room's owner changed its access or rotated its links.
    case access
    /// The room's owner deleted it (`ids`: the cells it held); everyone in it is closed next.
    case deleted
    /// An editor restored a moment of the room's history (`moment`; `ids`: the cells now).
    case restored

    /// A connection opened or closed (`joined`, `left`): no frame depends on it, so frames
    /// need not wait behind it (`Mailbox.framesMayPass`).
    public var isPresence: Bool { self == .joined || self == .left }

    /// Whether it changes the cells, their data or the links (`restored` and `deleted` replace
    /// them whole): a moment's `dataSeq` moves with it, and a `moment`'s `since` carries it.
    public var changesCellData: Bool {
        switch self {
        case .added, .removed, .cleared, .updated, .linked, .unlinked, .deleted, .restored: true
        default: false
        }
    }
}

/// Something that happened to the shared layout. Its wire form (all but the sequence number,
/// which the bus assigns) is encoded once here, not once per connection.
public struct LayoutEvent: BusEvent, Equatable {
    public enum Detail: Equatable, Sendable {
        case cells([CellID])
        /// The new cells' ids, and the data of those that have any.
        case added([CellID], data: [CellRecordData])
        /// Each updated cell's data as it now is, whole.
        case updated([CellRecordData])
        case linked([LinkRecord])
        case unlinked([LinkEnds])
        case params(Parameters, changed: [String])
        case pinned(id: CellID, x: Double, y: Double)
        case unpinned(id: CellID)
        case none
        case membership(client: String, clients: Int)
        /// An event a relay got from its room's owner: only its wire form is known.
        case relayed
        /// The server that steps the room now, the one before it (nil: unknown), and the cells
        /// pinned and the parameters as of the state it went on from (a history recorded before
        /// failovers carried them has none).
        case failover(node: String, previous: String?, pinned: [CellID], parameters: Parameters?)
        /// The room's access now, and the links rotated (none when only the mode changed).
        case access(mode: AccessMode, rotated: [LinkKind])
        /// The moment restored (ms since 1970), the cells the room holds now and those pinned,
        /// and its data as the `data` message has it (cells with data, every link).
        case restored(moment: Int, ids: [CellID], pinned: [CellID], records: [CellRecordData], links: [LinkRecord])
    }

    public let kind: EventKind
    public let by: String?
    public let tick: Int
    public let detail: Detail
    /// Wall-clock time it happened, ms since 1970 (`at` on the wire): a late joiner's log
    /// shows when replayed events happened, not when they arrived.
    public let at: Int
    /// The seq of the event this one undoes (`undo` on the wire), when a client's `undo` made
    /// it; nil otherwise (and for a relayed event, whose tail carries it).
    public let undo: UInt64?
    /// `,"kind":…}`: the message after `{"type":"event","seq":N`.
    public let encodedTail: [UInt8]

    /// Its message's size: the tail and `{"type":"event","seq":N` before it (at most 42 bytes).
    public var replayBytes: Int { encodedTail.count + 42 }

    public static func now() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded()) }

    public init(kind: EventKind, by: String?, tick: Int, detail: Detail, at: Int = LayoutEvent.now(), undo: UInt64? = nil) {
        self.kind = kind
        self.by = by
        self.tick = tick
        self.detail = detail
        self.at = at
        self.undo = undo
        var writer = JSONWriter()
        Self.writeHead(kind: kind, by: by, tick: tick, at: at, undo: undo, into: &writer)
        Self.write(detail, into: &writer)
        writer.raw("}")
        encodedTail = writer.bytes
    }

    /// `,"kind":…,"by":…,"tick":…,"at":…,"undo":…`: what every event says of itself, on the
    /// wire and in a `history` answer.
    package static func writeHead(kind: EventKind, by: String?, tick: Int, at: Int, undo: UInt64?, into writer: inout JSONWriter) {
        writer.member("kind", kind.rawValue)
        if let by { writer.member("by", by) }
        writer.member("tick", tick)
        writer.member("at", at)
        if let undo { writer.member("undo", undo) }
    }

    /// An event read back from a history file: what it did (`detail`) and its wire form as it
    /// was written (`encodedTail`), kept byte for byte.
    package init(read kind: EventKind, by: String?, tick: Int, at: Int, detail: Detail, undo: UInt64?, encodedTail: [UInt8]) {
        self.kind = kind
        self.undo = undo
        self.by = by
        self.tick = tick
        self.at = at
        self.detail = detail
        self.encodedTail = encodedTail
    }

    /// An event as its room's owner encoded it (`encodedTail`), mirrored by a relay.
    init(relayedKind kind: EventKind, by: String?, tick: Int, at: Int, encodedTail: [UInt8]) {
        self.kind = kind
        self.by = by
        self.tick = tick
        self.at = at
        undo = nil
        detail = .relayed
        self.encodedTail = encodedTail
    }

    /// The detail's members (`,"ids":[…]` and so on); `brief`: its bulky arrays (`ids`,
    /// `cells`, `links`, `pinned`, `data`, and the parameters) left out, their length as `n`
    /// (a `history` answer's events).
    package static func write(_ detail: Detail, brief: Bool = false, into writer: inout JSONWriter) {
        switch detail {
        case .cells(let ids):
            if brief { return writer.member("n", ids.count) }
            writer.raw(",\"ids\":")
            writer.integers(ids)
        case .added(let ids, let data):
            if brief { return writer.member("n", ids.count) }
            writer.raw(",\"ids\":")
            writer.integers(ids)
            if !data.isEmpty {
                writer.raw(",\"cells\":")
                writer.array(data) { $0.cellRecord($1) }
            }
        case .updated(let data):
            if brief { return writer.member("n", data.count) }
            writer.raw(",\"cells\":")
            writer.array(data) { $0.cellRecord($1) }
        case .linked(let links):
            if brief { return writer.member("n", links.count) }
            writer.raw(",\"links\":")
            writer.array(links) { $0.linkRecord($1) }
        case .unlinked(let ends):
            if brief { return writer.member("n", ends.count) }
            writer.raw(",\"links\":")
            writer.array(ends) { $0.linkEnds($1) }
        case .params(let parameters, let changed):
            if !brief {
                writer.raw(",\"params\":")
                ServerMessages.writeParameters(parameters, into: &writer)
            }
            writer.raw(",\"changed\":")
            writer.strings(changed)
        case .pinned(let id, let x, let y):
            writer.member("id", id)
            writer.member("x", x)
            writer.member("y", y)
        case .unpinned(let id):
            writer.member("id", id)
        case .none, .relayed:
            break
        case .failover(let node, let previous, let pinned, let parameters):
            writer.member("node", node)
            if let previous { writer.member("previous", previous) }
            if brief { return writer.member("n", pinned.count) }
            writer.raw(",\"pinned\":")
            writer.integers(pinned)
            if let parameters {
                writer.raw(",\"params\":")
                ServerMessages.writeParameters(parameters, into: &writer)
            }
        case .access(let mode, let rotated):
            writer.member("access", mode.rawValue)
            if !rotated.isEmpty && !brief {
                writer.raw(",\"rotated\":")
                writer.strings(rotated.map(\.rawValue))
            }
        case .membership(let client, let clients):
            writer.member("client", client)
            writer.member("clients", clients)
        case .restored(let moment, let ids, let pinned, let records, let links):
            writer.member("moment", moment)
            if brief { return writer.member("n", ids.count) }
            writer.raw(",\"ids\":")
            writer.integers(ids)
            writer.raw(",\"pinned\":")
            writer.integers(pinned)
            var attrs = LinkAttributes()
            for link in links where link.attrs != nil { attrs[link.link.source, link.link.target] = link.attrs }
            writer.raw(",\"data\":{")
            DataMessage.writeColumns(records: records, links: links.map(\.link), linkAttrs: attrs, into: &writer)
            writer.raw("}")
        }
    }

    public static func == (lhs: LayoutEvent, rhs: LayoutEvent) -> Bool {
        lhs.kind == rhs.kind && lhs.by == rhs.by && lhs.tick == rhs.tick && lhs.detail == rhs.detail && lhs.undo == rhs.undo
    }
}

extension EventSelection {
    package var filter: KindFilter<EventKind> {
        switch self {
        case .all: return .all
        case .only(let kinds): return .only(kinds)
        }
    }
}
