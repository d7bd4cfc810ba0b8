import ForceLayout
import LayoutCore

/// Sends a `GraphFile` to a room, as `forcelayout import` and the page do: the cells in
/// batches within the server's limits (`maxAddPerMessage`, `maxMessageBytes`), up to `window`
/// messages in flight, each answered by its `added` event (which gives the cells' ids) or its
/// error (by its own ref, `import-N`); then the links the same way, once every cell has its
/// id. The server applies one connection's commands in order and answers them in that order
/// (events in `seq` order; errors name their ref), so an `added` or `linked` answers the oldest
/// message in flight. A value with transitions that return what to do; no I/O.
/// Attributes over the server's `maxAttrBytes` are left out (and said in the notes); a server
/// whose hello announces no `maxAttrBytes` (one from before keys and attributes) gets none.
///
/// An import survives its room moving to another server (`ImportSession+Resume`): after a
/// `failover`, or a batch unanswered for `answerTimeout` seconds (then over a new connection),
/// the room's `data` says which cells (by key) and links (by ends) it holds, and only what it
/// lacks is sent again: nothing twice, and nothing the failover lost is left out.
public struct ImportSession: RoomDriver {
    public typealias Action = SessionAction<Summary>

    public struct Summary: Equatable, Sendable {
        public var cells = 0
        public var links = 0
        /// What was not imported, and why: the file's own problems, then the server's refusals.
        public var notes: [String] = []
    }

    public enum Phase: Equatable, Sendable {
        /// Before the first hello.
        case connecting
        /// `replace`: the room's `clear` is in flight; no cell goes before its `cleared`.
        case clearing
        /// A batch of cells, or of links, is (or was last) in flight.
        case cells, links
        /// Waiting for the room's `data`, to learn what of the import it holds.
        case resyncing
        case done
    }

    /// What became of an edge (`sent`: in a message not answered yet).
    enum EdgeOutcome: UInt8, Sendable { case pending, sent, linked, refused, skipped }

    /// A message sent and not answered yet: its ref and the nodes (`cells`) or edges (`links`)
    /// it carries. After a resync the window may hold both: lost cells go again while links
    /// sent before the failover was heard of are still in flight.
    struct Batch: Equatable, Sendable {
        let ref: String
        let kind: Phase
        var items: [Int]
    }

    /// Messages in flight at most, by default: enough to keep a room's steps (each applies
    /// every message waiting) and the server's rate limit busy, however long a step takes.
    public static let defaultWindow = 16

    public internal(set) var phase = Phase.connecting
    let graph: GraphFile
    var client = ""
    var limits = Limits()
    /// Whether the server keeps keys and attributes (its hello announces `maxAttrBytes`).
    var keepsAttrs = false
    /// The cell id each node got, by position in `graph.nodes` (nil: not in the room).
    var ids: [CellID?]
    var edges: [EdgeOutcome]
    /// Where the next batch's search starts: every node or edge before it is decided (a
    /// resync moves it back to what the room lost).
    var nextNode = 0
    var nextEdge = 0
    /// The messages awaiting their answers, oldest first.
    var window: [Batch] = []
    /// Messages in flight at most.
    let windowSize: Int
    /// Nodes in a message not answered yet.
    var nodeSent: [Bool]
    /// Messages sent so far (each one's ref is `import-` and its number).
    var serial = 0
    var cellsIn = 0
    var linksIn = 0
    var notes: [String]
    /// Nodes and edges whose attributes were left out for their size (each counted once).
    var oversizedNodes = Set<Int>()
    var oversizedEdges = Set<Int>()
    var refusals: [String] = []
    /// The resume's state (`ImportSession+Resume`).
    var resume = Resume()
    /// Clear the room before the first cell goes (`forcelayout import --replace`), so that
    /// importing again replaces the graph instead of adding a second copy.
    let replace: Bool
    /// The room's `cleared` answered this import's `clear`.
    var cleared = false
    static let clearRef = "import-clear"

    public init(graph: GraphFile, window: Int = Self.defaultWindow, replace: Bool = false) {
        self.graph = graph
        self.replace = replace
        windowSize = max(1, window)
        ids = Array(repeating: nil, count: graph.nodes.count)
        nodeSent = Array(repeating: false, count: graph.nodes.count)
        edges = Array(repeating: .pending, count: graph.edges.count)
        notes = graph.notes
    }

    public var connecting: Bool { phase == .connecting }

    public var progress: (done: Int, total: Int) {
        (cellsIn + linksIn, graph.nodes.count + graph.edges.count)
    }

    /// A message from the server (a text message, parsed).
    public mutating func received(_ message: JSONValue) -> Action {
        guard case .string(let type)? = message["type"] else { return .wait }
        switch (phase, type) {
        case (.connecting, "hello"):
            guard case .string(let id)? = message["client"] else { return .failed("the server's hello names no client") }
            if case .string("viewer")? = message["role"] {
                return .failed("the room is view only to this import: give it the room's edit link (--key-file FILE, or $FORCELAYOUT_KEY)")
            }
            client = id
            limits = Self.limits(message["limits"])
            keepsAttrs = message["limits"]?["maxAttrBytes"] != nil
            if !keepsAttrs { notes.append("ids and attributes not kept: the server does not keep them (it is older)") }
            return replace ? sendClear() : nextMessage()
        case (.resyncing, "hello") where resume.returnTo == .clearing:
            // The clear went unanswered: none of the import's cells went yet, so clearing
            // again changes nothing it sent.
            guard case .string(let id)? = message["client"] else { return .failed("the server's hello names no client") }
            client = id
            return sendClear()
        case (.resyncing, "hello"):
            return greeted(message)
        case (.clearing, "event"):
            if case .string("failover")? = message["kind"] { return sendClear() }
            return clearAnswered(message)
        case (.clearing, "error"):
            guard case .string(Self.clearRef)? = message["ref"] else { return .wait }
            let why: String = if case .string(let text)? = message["message"] { text } else { "refused" }
            return .failed("the server refused to clear the room: \(why)")
        case (.resyncing, "data"):
            return resynced(message)
        case (.cells, "event"), (.links, "event"):
            if case .string("failover")? = message["kind"] { return failover() }
            return answered(message)
        case (.cells, "error"), (.links, "error"):
            return refused(message)
        default:
            return .wait
        }
    }

    /// The room's `clear`, before any cell (`replace`): one message in flight until its
    /// `cleared`.
    mutating func sendClear() -> Action {
        phase = .clearing
        window = [Batch(ref: Self.clearRef, kind: .clearing, items: [])]
        resume.sent()
        return .send([ClientRequest(.layout(.clear), ref: Self.clearRef).encoded])
    }

    /// This import's `cleared`: the cells go now.
    private mutating func clearAnswered(_ message: JSONValue) -> Action {
        guard case .string("cleared")? = message["kind"], case .string(let by)? = message["by"],
              by == client || resume.formerClients.contains(by) else { return .wait }
        cleared = true
        window = []
        resume.answered(windowEmpty: true)
        phase = .cells
        return nextMessage()
    }

    /// The nodes or edges of the messages awaiting their answers (by position).
    var inFlight: [Int] { window.flatMap(\.items) }

    /// The answer to the oldest message in flight: its `added` (with the new cells' ids) or
    /// `linked`.
    mutating func answered(_ message: JSONValue) -> Action {
        guard let oldest = window.first, case .string(let by)? = message["by"], by == client || resume.formerClients.contains(by),
              case .string(let kind)? = message["kind"] else { return .wait }
        if oldest.kind == .cells, kind == "added", case .array(let added)? = message["ids"], added.count == oldest.items.count {
            for (index, id) in zip(oldest.items, added) {
                ids[index] = Fields.positiveInteger(id)
                nodeSent[index] = false
            }
            cellsIn += oldest.items.count
        } else if oldest.kind == .links, kind == "linked" {
            for index in oldest.items { edges[index] = .linked }
            linksIn += oldest.items.count
        } else {
            return .wait
        }
        window.removeFirst()
        resume.answered(windowEmpty: window.isEmpty)
        return nextMessage()
    }

    /// The server refused a message in flight (named by its ref): cells end the import, links
    /// are noted.
    private mutating func refused(_ message: JSONValue) -> Action {
        guard case .string(let ref)? = message["ref"], let position = window.firstIndex(where: { $0.ref == ref }) else { return .wait }
        let why: String = if case .string(let text)? = message["message"] { text } else { "refused" }
        let refused = window.remove(at: position)
        let batch = refused.items
        resume.answered(windowEmpty: window.isEmpty)
        guard refused.kind == .links else {
            return .failed("the server refused cells \(batch.first! + 1)-\(batch.last! + 1): \(why)")
        }
        // Links sent before a failover was heard of may name cells the room lost with its
        // old owner: they go again once those cells are back.
        if batch.contains(where: { ids[graph.edges[$0].source] == nil || ids[graph.edges[$0].target] == nil }) {
            for index in batch { edges[index] = .pending }
            resume.resent.links += batch.count
            nextEdge = min(nextEdge, batch.min() ?? nextEdge)
            return nextMessage()
        }
        for index in batch { edges[index] = .refused }
        refusals.append("\(batch.count) link(s) refused by the server: \(why)")
        return nextMessage()
    }

    public var summary: Summary {
        var notes = notes
        if !oversizedNodes.isEmpty {
            notes.append("\(oversizedNodes.count) node attribute set(s) left out: over maxAttrBytes (\(limits.maxAttrBytes)) or too big for a message")
        }
        if !oversizedEdges.isEmpty {
            notes.append("\(oversizedEdges.count) link attribute set(s) left out: over maxAttrBytes (\(limits.maxAttrBytes)) or too big for a message")
        }
        let skipped = edges.lazy.filter { $0 == .skipped }.count
        if skipped > 0 { notes.append("\(skipped) link(s) left out: an end was not imported") }
        if resume.resent.cells + resume.resent.links > 0 {
            notes.append("sent again after the room moved: \(resume.resent.cells) cell(s) and \(resume.resent.links) link(s) it did not hold")
        }
        return Summary(cells: cellsIn, links: linksIn, notes: notes + refusals)
    }

    /// The server's `hello.limits`: each limit of `Limits.table` it states within the bounds a
    /// server accepts; the default for any other.
    static func limits(_ value: JSONValue?) -> Limits {
        var limits = Limits()
        for spec in Limits.table {
            if case .number(let number)? = value?[spec.key] { spec.set(number, in: &limits) }
        }
        return limits
    }

    /// The server's rate limit, for pacing the messages.
    public var messagesPerSecond: Double { limits.messagesPerSecond }
    public var messageBurst: Double { limits.messageBurst }
}
