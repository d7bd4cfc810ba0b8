import ForceLayout
import LayoutCore

/// How an import survives its room moving to another server, or a batch going unanswered:
/// the room's `data` (after the `failover` event on the same connection, or after the `hello`
/// of a new one) says which of the import's cells it holds (by key: `data`'s `cells.key`) and
/// which links (by their ends). Cells and links acknowledged but lost with the old owner (it
/// saves at most every 0.75 s) are sent again; so is the batch in flight when the room lacks
/// it, but only after `leftoverWait` more seconds without its answer: the new owner applies
/// what waited in Redis before it tells the failover, but a batch another server relayed after
/// that is answered just after, and its answer (by this connection's client, or an earlier
/// connection's) then still counts. Links refused for naming a cell the failover lost go
/// again once it is back.
extension ImportSession {
    /// Seconds a batch may go unanswered before it is looked for over a new connection.
    public static let answerTimeout = 20.0
    /// Seconds a new connection waits for the room's `data` before taking the room to hold
    /// none of the import (a room whose cells have no data sends none).
    public static let dataTimeout = 10.0
    /// Seconds a batch the room lacks may still be answered before it is sent again.
    public static let leftoverWait = 1.5
    /// New connections one import may make before it gives up.
    public static let maxReconnects = 5

    struct Resume: Sendable {
        /// When the wait under way began (nil: the next tick starts its clock).
        var since: Double?
        /// The phase a resync returns to (what was in flight).
        var returnTo = Phase.cells
        var reconnects = 0
        /// The batch in flight is to be sent again after `leftoverWait`, unless answered first.
        var resendDue = false
        /// The clients of this import's earlier connections (a late answer may name one).
        var formerClients = Set<String>()
        var resent = (cells: 0, links: 0)

        mutating func sent() {
            since = nil
            resendDue = false
        }

        /// A message was answered: the clock starts again; what is to be sent again waits on
        /// while messages are still in flight.
        mutating func answered(windowEmpty: Bool) {
            since = nil
            if windowEmpty { resendDue = false }
        }
    }

    /// Time goes on (the client calls this every 100 ms or so): a batch unanswered for
    /// `answerTimeout` seconds is looked for over a new connection; what the room lacks is sent
    /// again `leftoverWait` seconds after the resync; a new connection that got no `data` for
    /// `dataTimeout` seconds goes on as if the room held none of the import.
    public mutating func tick(now: Double) -> Action {
        guard !window.isEmpty || phase == .resyncing else { return .wait }
        guard let since = resume.since else {
            resume.since = now
            return .wait
        }
        if resume.resendDue { return now - since >= Self.leftoverWait ? resendMissing() : .wait }
        if phase == .resyncing {
            guard client != "", now - since >= Self.dataTimeout else { return .wait }
            return reconcile(cells: [], keys: [], links: [])
        }
        guard now - since >= Self.answerTimeout else { return .wait }
        return reconnect(now: now)
    }

    /// The connection ended before the import did (the server closed it: a relay that lost its
    /// room, a restart): the import goes on over a new one.
    public mutating func connectionLost(now: Double) -> Action {
        guard phase != .done else { return .wait }
        guard client != "" || phase == .resyncing else { return .failed("the connection ended before the server's hello") }
        return reconnect(now: now)
    }

    private mutating func reconnect(now: Double) -> Action {
        guard keepsAttrs else { return cannotResume("the server stopped answering") }
        guard resume.reconnects < Self.maxReconnects else {
            return .failed("no answer from the server after \(resume.reconnects) new connections: the import stopped at \(cellsIn) cells and \(linksIn) links")
        }
        resume.reconnects += 1
        if phase != .resyncing { resume.returnTo = phase }
        phase = .resyncing
        if client != "" { resume.formerClients.insert(client) }
        client = ""
        resume.since = now
        return .reconnect
    }

    /// A `failover` event: the room's `data` follows on this connection.
    mutating func failover() -> Action {
        guard keepsAttrs else { return cannotResume("the room moved to another server") }
        resume.returnTo = phase
        phase = .resyncing
        resume.since = nil
        return .wait
    }

    /// The hello of a new connection: its `data` comes next (if the room has any).
    mutating func greeted(_ message: JSONValue) -> Action {
        guard case .string(let id)? = message["client"] else { return .failed("the server's hello names no client") }
        client = id
        resume.since = nil
        return .wait
    }

    /// The room's `data` during a resync.
    mutating func resynced(_ message: JSONValue) -> Action {
        var cells = Set<CellID>(), keys: [(CellID, CellKey)] = []
        if case .array(let column)? = message["cells"]?["id"] {
            let keyColumn: [JSONValue] = if case .array(let values)? = message["cells"]?["key"] { values } else { [] }
            for (offset, value) in column.enumerated() {
                guard let id = Fields.positiveInteger(value) else { continue }
                cells.insert(id)
                if offset < keyColumn.count, let key = try? CellKey.make(keyColumn[offset]).get() { keys.append((id, key)) }
            }
        }
        var links = Set<LinkEnds>()
        if case .array(let sources)? = message["links"]?["source"], case .array(let targets)? = message["links"]?["target"] {
            for (source, target) in zip(sources, targets) {
                guard let source = Fields.positiveInteger(source), let target = Fields.positiveInteger(target) else { continue }
                links.insert(Self.ends(source, target))
            }
        }
        return reconcile(cells: cells, keys: keys, links: links)
    }

    /// What the room holds against what the import sent: lost cells and links go back to be
    /// sent, the batch in flight counts as answered when the room has it whole.
    private mutating func reconcile(cells room: Set<CellID>, keys: [(CellID, CellKey)], links: Set<LinkEnds>) -> Action {
        phase = resume.returnTo
        resume.since = nil
        let newest = forgetLostCells(room)
        forgetLostLinks(links)
        answerCellBatches(keys: keys, newerThan: newest)
        answerLinkBatches(links)
        guard window.isEmpty else {
            resume.resendDue = true
            return .wait
        }
        return nextMessage()
    }

    /// Sent cells the room lacks go back to be sent; returns the newest id of those it has.
    private mutating func forgetLostCells(_ room: Set<CellID>) -> CellID {
        var newest: CellID = 0
        for index in ids.indices {
            guard let id = ids[index] else { continue }
            if room.contains(id) {
                newest = max(newest, id)
            } else {
                ids[index] = nil
                cellsIn -= 1
                resume.resent.cells += 1
                nextNode = min(nextNode, index)
            }
        }
        return newest
    }

    /// Made links the room lacks go back to be sent.
    private mutating func forgetLostLinks(_ links: Set<LinkEnds>) {
        for index in edges.indices where edges[index] == .linked && !holds(links, index) {
            edges[index] = .pending
            linksIn -= 1
            resume.resent.links += 1
            nextEdge = min(nextEdge, index)
        }
    }

    /// The batches of cells in flight that the room has, found by their keys among the cells
    /// newer than `newest`, count as answered.
    private mutating func answerCellBatches(keys: [(CellID, CellKey)], newerThan newest: CellID) {
        // An add is all or nothing: the room has a batch when it has every one of its keys
        // among the cells newer than the import's others (each batch on its own: the
        // messages in flight may have arrived or not, each whole).
        var found: [CellKey: CellID] = [:]
        for (id, key) in keys where id > newest && found[key] == nil { found[key] = id }
        window.removeAll { batch in
            guard batch.kind == .cells else { return false }
            let got = batch.items.map { graph.nodes[$0].cell.data.key.flatMap { found[$0] } }
            guard got.allSatisfy({ $0 != nil }) else { return false }
            for (index, id) in zip(batch.items, got) {
                ids[index] = id
                nodeSent[index] = false
            }
            cellsIn += batch.items.count
            return true
        }
    }

    /// The links in flight that the room has count as made; batches left empty are answered.
    private mutating func answerLinkBatches(_ links: Set<LinkEnds>) {
        for position in window.indices where window[position].kind == .links {
            let arrived = Set(window[position].items.filter { holds(links, $0) })
            for index in arrived { edges[index] = .linked }
            linksIn += arrived.count
            window[position].items.removeAll { arrived.contains($0) }
        }
        window.removeAll { $0.kind == .links && $0.items.isEmpty }
    }

    /// What the room lacked of the messages in flight, again (nothing answered them meanwhile).
    private mutating func resendMissing() -> Action {
        resume.resendDue = false
        resume.since = nil
        for batch in window {
            let items = batch.items
            if batch.kind == .cells {
                resume.resent.cells += items.count
                for index in items { nodeSent[index] = false }
                nextNode = min(nextNode, items.min() ?? nextNode)
            } else {
                resume.resent.links += items.count
                for index in items { edges[index] = .pending }
                nextEdge = min(nextEdge, items.min() ?? nextEdge)
            }
        }
        window = []
        return nextMessage()
    }

    /// Whether `links` has edge `index` between the cells its ends are now.
    private func holds(_ links: Set<LinkEnds>, _ index: Int) -> Bool {
        let edge = graph.edges[index]
        guard let source = ids[edge.source], let target = ids[edge.target] else { return false }
        return links.contains(Self.ends(source, target))
    }

    private static func ends(_ a: CellID, _ b: CellID) -> LinkEnds { LinkEnds(source: min(a, b), target: max(a, b)) }

    /// A server that keeps no keys (older) gives nothing to resume by: the import stops, saying
    /// what arrived.
    private func cannotResume(_ why: String) -> Action {
        .failed("\(why) mid-import, and the server keeps no cell keys to resume by: \(cellsIn) cells and \(linksIn) links arrived")
    }
}
