import ForceLayout
import LayoutCore

/// What an import sends: messages while the window has room, cells in batches within the
/// server's limits (attributes left out where they do not fit), then links once every cell
/// has its id; each message remembered with what it carries until its answer.
extension ImportSession {
    /// The next messages, while the window has room (cells while a node is neither in the room
    /// nor on its way, then links once every cell has its id), or the end.
    mutating func nextMessage() -> Action {
        var messages: [[UInt8]] = []
        filling: while window.count < windowSize {
            switch nextBatch() {
            case .send(let more): messages += more
            case .failed(let why): return .failed(why)
            default: break filling
            }
        }
        if !messages.isEmpty { return .send(messages) }
        guard window.isEmpty, nextNode >= ids.count, nextEdge >= edges.count else { return .wait }
        phase = .done
        return .finished(summary)
    }

    /// One message (cells while a node is neither in the room nor on its way; links once every
    /// cell has its id), `.wait` when none can go now.
    private mutating func nextBatch() -> Action {
        while nextNode < ids.count, ids[nextNode] != nil || nodeSent[nextNode] { nextNode += 1 }
        if nextNode < ids.count { return sendCells() }
        // Links name cells by the ids their answers give.
        if window.contains(where: { $0.kind == .cells }) { return .wait }
        while true {
            while nextEdge < edges.count, edges[nextEdge] != .pending { nextEdge += 1 }
            guard nextEdge < edges.count else { return .wait }
            if let action = sendLinks() { return action }
        }
    }

    /// The nodes not in the room, from `nextNode` on, as many as one message takes.
    private mutating func sendCells() -> Action {
        var batch = ImportBatch(limits: limits)
        var picked: [Int] = []
        var index = nextNode
        while index < graph.nodes.count {
            guard ids[index] == nil, !nodeSent[index] else {
                index += 1
                continue
            }
            var cell = graph.nodes[index].cell
            if !keepsAttrs { cell.data.key = nil }
            let tooBig = (cell.data.attrs?.bytes.count ?? 0) > limits.maxAttrBytes
            if !keepsAttrs || tooBig { cell.data.attrs = nil }
            if batch.admit(cell) {
                if keepsAttrs && tooBig { oversizedNodes.insert(index) }
            } else {
                // Alone in a message, it still does not fit (maxAttrBytes near maxMessageBytes):
                // it goes without its attributes.
                guard batch.isEmpty, cell.data.attrs != nil else { break }
                cell.data.attrs = nil
                guard batch.admit(cell) else { break }
                oversizedNodes.insert(index)
            }
            picked.append(index)
            index += 1
        }
        guard !picked.isEmpty else { return .failed("node \(graph.nodes[nextNode].key) does not fit in one message") }
        return send(.addCells(batch.cells, spawn: .random), carrying: picked, as: .cells)
    }

    /// The pending edges from `nextEdge` on, as many as one message takes; nil when every
    /// edge looked at lost an end (a refused cell): on to the next.
    private mutating func sendLinks() -> Action? {
        var batch = ImportBatch(limits: limits)
        var picked: [Int] = []
        var index = nextEdge
        while index < graph.edges.count {
            let edge = graph.edges[index]
            guard edges[index] == .pending else {
                index += 1
                continue
            }
            guard let source = ids[edge.source], let target = ids[edge.target] else {
                edges[index] = .skipped
                index += 1
                continue
            }
            let link = Link(source: source, target: target, distance: edge.distance, strength: edge.strength)
            let tooBig = (edge.attrs?.bytes.count ?? 0) > limits.maxAttrBytes
            let attrs = keepsAttrs && !tooBig ? edge.attrs : nil
            if batch.admit(LinkRecord(link, attrs: attrs)) {
                if keepsAttrs && tooBig { oversizedEdges.insert(index) }
            } else {
                guard batch.isEmpty, attrs != nil, batch.admit(LinkRecord(link)) else { break }
                oversizedEdges.insert(index)
            }
            picked.append(index)
            index += 1
        }
        guard !picked.isEmpty else {
            nextEdge = index
            return index > nextEdge || index == graph.edges.count ? nil : .failed("a link does not fit in one message")
        }
        return send(.link(batch.links), carrying: picked, as: .links)
    }

    private mutating func send(_ command: LayoutCommand, carrying picked: [Int], as kind: Phase) -> Action {
        serial += 1
        let ref = "import-\(serial)"
        window.append(Batch(ref: ref, kind: kind, items: picked))
        for index in picked {
            if kind == .cells { nodeSent[index] = true } else { edges[index] = .sent }
        }
        phase = kind
        resume.sent()
        return .send([ClientRequest(.layout(command), ref: ref).encoded])
    }
}
