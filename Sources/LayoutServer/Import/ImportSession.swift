import ForceLayout

/// Sends a `GraphFile` to a room, as `forcelayout import` and the page do: the cells in
/// batches within the server's limits (`maxAddPerMessage`, `maxMessageBytes`), one message
/// at a time, each answered by its `added` event (which gives the cells' ids) or its error;
/// then the links the same way. A value with transitions that return what to do; no I/O.
/// Attributes over the server's `maxAttrBytes` are left out (and said in the notes); a server
/// whose hello announces no `maxAttrBytes` (one from before keys and attributes) gets none.
public struct ImportSession: Sendable {
    public enum Action: Equatable, Sendable {
        /// Send this text message, then wait for its answer.
        case send([UInt8])
        /// Nothing to send now.
        case wait
        case finished(Summary)
        case failed(String)
    }

    public struct Summary: Equatable, Sendable {
        public var cells = 0
        public var links = 0
        /// What was not imported, and why: the file's own problems, then the server's refusals.
        public var notes: [String] = []
    }

    public enum Phase: Equatable, Sendable { case connecting, cells, links, done }

    public private(set) var phase = Phase.connecting
    private let graph: GraphFile
    private var client = ""
    private var limits = Limits()
    /// The cell id each node got, by position in `graph.nodes`.
    private var ids: [CellID?]
    private var nextNode = 0
    private var nextEdge = 0
    /// The nodes or edges the message awaiting its answer carries.
    private var inFlight: Range<Int>?
    private var summary = Summary()
    /// Whether the server keeps keys and attributes (its hello announces `maxAttrBytes`).
    private var keepsAttrs = false
    /// Attribute sets left out for being over `maxAttrBytes`, of nodes and of links.
    private var oversized = (nodes: 0, links: 0)

    public init(graph: GraphFile) {
        self.graph = graph
        ids = Array(repeating: nil, count: graph.nodes.count)
        summary.notes = graph.notes
    }

    public var progress: (done: Int, total: Int) {
        (summary.cells + summary.links, graph.nodes.count + graph.edges.count)
    }

    /// A message from the server (a text message, parsed).
    public mutating func received(_ message: JSONValue) -> Action {
        guard case .string(let type)? = message["type"] else { return .wait }
        switch (phase, type) {
        case (.connecting, "hello"):
            guard case .string(let id)? = message["client"] else { return .failed("the server's hello names no client") }
            client = id
            limits = Self.limits(message["limits"])
            keepsAttrs = message["limits"]?["maxAttrBytes"] != nil
            if !keepsAttrs { summary.notes.append("ids and attributes not kept: the server does not keep them (it is older)") }
            phase = .cells
            return nextMessage()
        case (.cells, "event"), (.links, "event"):
            guard case .string(client)? = message["by"], let range = inFlight,
                  case .string(let kind)? = message["kind"] else { return .wait }
            if phase == .cells, kind == "added", case .array(let added)? = message["ids"], added.count == range.count {
                for (offset, id) in added.enumerated() { ids[range.lowerBound + offset] = Fields.positiveInteger(id) }
                summary.cells += range.count
            } else if phase == .links, kind == "linked" {
                summary.links += range.count
            } else {
                return .wait
            }
            inFlight = nil
            return nextMessage()
        case (.cells, "error"), (.links, "error"):
            guard case .string("import")? = message["ref"], let range = inFlight else { return .wait }
            let why: String = if case .string(let text)? = message["message"] { text } else { "refused" }
            inFlight = nil
            guard phase == .links else { return .failed("the server refused cells \(range.lowerBound + 1)-\(range.upperBound): \(why)") }
            summary.notes.append("\(range.count) link(s) refused by the server: \(why)")
            return nextMessage()
        default:
            return .wait
        }
    }

    /// The next batch, or the end.
    private mutating func nextMessage() -> Action {
        if phase == .cells {
            if nextNode < graph.nodes.count { return sendCells() }
            phase = .links
        }
        while nextEdge < graph.edges.count {
            if let action = sendLinks() { return action }
        }
        phase = .done
        if oversized.nodes > 0 { summary.notes.append("\(oversized.nodes) node attribute set(s) left out: over maxAttrBytes (\(limits.maxAttrBytes)) or too big for a message") }
        if oversized.links > 0 { summary.notes.append("\(oversized.links) link attribute set(s) left out: over maxAttrBytes (\(limits.maxAttrBytes)) or too big for a message") }
        return .finished(summary)
    }

    private mutating func sendCells() -> Action {
        let start = nextNode
        var batch = Batch(limits: limits)
        while nextNode < graph.nodes.count {
            var cell = graph.nodes[nextNode].cell
            if !keepsAttrs { cell.data.key = nil }
            let tooBig = (cell.data.attrs?.bytes.count ?? 0) > limits.maxAttrBytes
            if !keepsAttrs || tooBig { cell.data.attrs = nil }
            if batch.admit(cell) {
                if keepsAttrs && tooBig { oversized.nodes += 1 }
            } else {
                // Alone in a message, it still does not fit (maxAttrBytes near maxMessageBytes):
                // it goes without its attributes.
                guard batch.isEmpty, cell.data.attrs != nil else { break }
                cell.data.attrs = nil
                guard batch.admit(cell) else { break }
                oversized.nodes += 1
            }
            nextNode += 1
        }
        guard nextNode > start else { return .failed("node \(graph.nodes[start].key) does not fit in one message") }
        inFlight = start..<nextNode
        return .send(ClientRequest(.layout(.addCells(batch.cells, spawn: .random)), ref: "import").encoded)
    }

    /// nil when every edge of the batch lost an end (a refused cell): on to the next.
    private mutating func sendLinks() -> Action? {
        let start = nextEdge
        var batch = Batch(limits: limits)
        var skipped = 0
        while nextEdge < graph.edges.count {
            let edge = graph.edges[nextEdge]
            guard let source = ids[edge.source], let target = ids[edge.target] else {
                skipped += 1
                nextEdge += 1
                continue
            }
            let link = Link(source: source, target: target, distance: edge.distance ?? Link.defaultDistance, strength: edge.strength)
            let tooBig = (edge.attrs?.bytes.count ?? 0) > limits.maxAttrBytes
            let attrs = keepsAttrs && !tooBig ? edge.attrs : nil
            if batch.admit(LinkRecord(link, attrs: attrs)) {
                if keepsAttrs && tooBig { oversized.links += 1 }
            } else {
                guard batch.isEmpty, attrs != nil, batch.admit(LinkRecord(link)) else { break }
                oversized.links += 1
            }
            nextEdge += 1
        }
        if skipped > 0 { summary.notes.append("\(skipped) link(s) left out: an end was not imported") }
        guard !batch.links.isEmpty else { return nextEdge > start ? nil : .failed("a link does not fit in one message") }
        inFlight = 0..<batch.links.count
        return .send(ClientRequest(.layout(.link(batch.links)), ref: "import").encoded)
    }

    /// One message's worth: at most `maxAddPerMessage` items and `maxMessageBytes` bytes,
    /// the size kept as a running sum of each item's own (every item after the first adds a
    /// comma).
    private struct Batch {
        let limits: Limits
        var cells: [NewCell] = []
        var links: [LinkRecord] = []
        private var bytes = 0

        var isEmpty: Bool { cells.isEmpty && links.isEmpty }

        /// The bytes of a message with no items (the larger, `add`'s).
        private let overhead: Int

        init(limits: Limits) {
            self.limits = limits
            overhead = Self.size(.addCells([], spawn: .random))
        }

        mutating func admit(_ cell: NewCell) -> Bool {
            guard admit(Self.size(.addCells([cell], spawn: .random)) - overhead) else { return false }
            cells.append(cell)
            return true
        }

        mutating func admit(_ link: LinkRecord) -> Bool {
            guard admit(Self.size(.link([link])) - Self.size(.link([]))) else { return false }
            links.append(link)
            return true
        }

        private mutating func admit(_ itemBytes: Int) -> Bool {
            let count = cells.count + links.count
            guard count < limits.maxAddPerMessage, overhead + 1 + bytes + itemBytes + 1 <= limits.maxMessageBytes else { return false }
            bytes += itemBytes + 1
            return true
        }

        private static func size(_ command: LayoutCommand) -> Int {
            ClientRequest(.layout(command), ref: "import").encoded.count
        }
    }

    private static func limits(_ value: JSONValue?) -> Limits {
        var limits = Limits()
        if case .number(let n)? = value?["maxAddPerMessage"], n >= 1 { limits.maxAddPerMessage = Int(n) }
        if case .number(let n)? = value?["maxMessageBytes"], n >= 256 { limits.maxMessageBytes = Int(n) }
        if case .number(let n)? = value?["maxAttrBytes"], n >= 2, n < 1e9 { limits.maxAttrBytes = Int(n) }
        if case .number(let n)? = value?["messagesPerSecond"], n > 0 { limits.messagesPerSecond = n }
        if case .number(let n)? = value?["messageBurst"], n >= 1 { limits.messageBurst = n }
        return limits
    }

    /// The server's rate limit, for pacing the messages.
    public var messagesPerSecond: Double { limits.messagesPerSecond }
    public var messageBurst: Double { limits.messageBurst }
}
