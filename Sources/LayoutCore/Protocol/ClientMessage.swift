import ForceLayout

/// Which events a connection wants.
public enum EventSelection: Equatable, Sendable {
    case all
    case only(Set<EventKind>)
}

/// A cell an `add` brings: where it starts and its size (`CellSeed`), and its data.
public struct NewCell: Equatable, Sendable {
    public var seed: CellSeed
    public var data: CellData

    public init(seed: CellSeed = CellSeed(), data: CellData = CellData()) {
        self.seed = seed
        self.data = data
    }
}

/// What an `update` does to one field: leave it, reset it to the default (`null` on the
/// wire), or set it.
public enum FieldEdit<Value: Equatable & Sendable>: Equatable, Sendable {
    case keep
    case reset
    case set(Value)

    func applied(to value: Value?) -> Value? {
        switch self {
        case .keep: value
        case .reset: nil
        case .set(let new): new
        }
    }
}

/// One cell's changes in an `update`.
public struct CellEdit: Equatable, Sendable {
    public var id: CellID
    public var label: FieldEdit<String> = .keep
    public var color: FieldEdit<String> = .keep
    public var group: FieldEdit<String> = .keep
    public var radius: FieldEdit<Double> = .keep
    public var key: FieldEdit<CellKey> = .keep
    public var attrs: FieldEdit<Attrs> = .keep
    /// Where to put the cell (a pinned one stays pinned there); nil: where it is.
    public var x: Double?
    public var y: Double?

    public init(id: CellID) { self.id = id }
}

/// The two cells of a link, either way round.
public struct LinkEnds: Hashable, Sendable {
    public var source: CellID
    public var target: CellID

    public init(source: CellID, target: CellID) {
        self.source = source
        self.target = target
    }
}

/// A command that changes the shared layout; applied by the simulation thread.
public enum LayoutCommand: Equatable, Sendable {
    case add(count: Int, spawn: Spawn)
    case addCells([NewCell], spawn: Spawn)
    case update([CellEdit])
    case link([LinkRecord])
    case unlink([LinkEnds])
    case remove(ids: [CellID])
    case removeNewest(count: Int)
    case clear
    case params(ParameterChange)
    /// `drag`: held by the connection while it drags the cell (released when it closes).
    case pin(id: CellID, x: Double, y: Double, drag: Bool = false)
    case unpin(id: CellID)
    /// The room's owner changes its access or its links (`access` and `rotate` messages).
    case access(AccessChange)
    /// The client points at cell `id` (nil: stops pointing), under a display `name`: the
    /// room's `Pointers`, not the layout, change (no event; the room's owner applies it, so a
    /// relay forwards it as it forwards the others).
    case point(id: CellID?, name: String?)
    /// An editor restores the room as it was at `at` (ms since 1970): `LayoutState.restore`
    /// from its history (`HistoryLog.moment`).
    case restore(at: Int)
    /// The client's last change is undone (`UndoBook`): applied on the room's turn, as the
    /// others, so a relay forwards it to the room's owner.
    case undo
}

extension LayoutCommand {
    /// Whether applying it may take cells away (its history keeps a keyframe just before): an
    /// undo may (of an add, or a restore).
    package var removesCells: Bool {
        switch self {
        case .remove, .removeNewest, .clear, .access(.delete), .restore, .undo: true
        default: false
        }
    }
}

/// A validated message from a client.
public enum ClientMessage: Equatable, Sendable {
    case layout(LayoutCommand)
    case subscribe(EventSelection)
    case replay(count: Int, kinds: EventSelection)
    /// The owner sets the room's access mode.
    case setAccess(AccessMode)
    /// The owner rotates the room's links (`LinkDigests.rotating`).
    case rotate(Set<LinkKind>)
    /// The owner deletes the room.
    case deleteRoom
    /// Up to `count` events of the room's history older than `before` (nil: the newest).
    case history(before: UInt64?, count: Int)
    /// The room as it was at `at`; `have`: the `dataSeq` of the data the client holds;
    /// `patch`: the client takes a `patch` of it (docs/protocol.md, "History").
    case moment(at: Int, have: UInt64?, patch: Bool)

    /// Its `type` on the wire.
    package var kindName: String {
        switch self {
        case .layout(.add), .layout(.addCells): "add"
        case .layout(.update): "update"
        case .layout(.link): "link"
        case .layout(.unlink): "unlink"
        case .layout(.remove), .layout(.removeNewest): "remove"
        case .layout(.clear): "clear"
        case .layout(.params): "params"
        case .layout(.pin): "pin"
        case .layout(.unpin): "unpin"
        case .layout(.point): "point"
        case .layout(.restore): "restore"
        case .history: "history"
        case .moment: "moment"
        case .layout(.undo): "undo"
        case .layout(.access(.mode)), .setAccess: "access"
        case .layout(.access(.links)), .rotate: "rotate"
        case .layout(.access(.delete)), .deleteRoom: "delete"
        case .subscribe: "subscribe"
        case .replay: "replay"
        }
    }

    /// Its refusal (`forbidden`) to a connection of `role`, below `requiredRole`: one wording on
    /// every server, the one a client is on and, in a cluster, the room's owner.
    package func refusal(to role: Role, ref: String?) -> ProtocolError {
        let text = switch requiredRole {
        case .owner: "only the room's owner may send \(kindName) (this connection is \(role == .editor ? "an editor" : "a viewer"))"
        default: "this connection is a viewer: it may watch the room, not change it (open it with the room's edit link to edit)"
        }
        return ProtocolError(.forbidden, text, ref: ref)
    }

    /// Whether it needs the connection's room ready (its `hello` had): everything but
    /// `subscribe` and `replay`. A change waits for who may make it to be known; a `point`, for
    /// the connection to be in the room (one never greeted never leaves it, and its pointer
    /// would be left behind).
    package var needsRoom: Bool {
        switch self {
        case .subscribe, .replay, .history, .moment: false
        default: true
        }
    }

    /// The least role that may send it: viewers may only choose and replay their events, and
    /// point (it changes nothing of the room's).
    package var requiredRole: Role {
        switch self {
        case .layout(.point): .viewer
        case .layout: .editor
        case .subscribe, .replay, .history, .moment: .viewer
        case .setAccess, .rotate, .deleteRoom: .owner
        }
    }
}

/// A message with the `ref` it carried, if any.
public struct ClientRequest: Equatable, Sendable {
    public var message: ClientMessage
    public var ref: String?
}
