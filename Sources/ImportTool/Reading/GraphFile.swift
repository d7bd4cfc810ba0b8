import ForceLayout
import LayoutCore

/// A graph read from a file, ready to become cells and links: node-link JSON (as d3's
/// examples and networkx's `node_link_data` write it) or a CSV/TSV edge list (two columns,
/// optional header). What the file holds that a room cannot is fixed or left out, and said
/// in `notes`, one line per kind of problem. A node keeps its id in the file as its cell's
/// `key` and its other members as `attrs`; a link its other members (an edge list's further
/// columns) as `attrs`. Attributes are not yet bounded by size here: the server's
/// `maxAttrBytes` is known once connected (`ImportSession`).
public struct GraphFile: Sendable {
    public struct Node: Sendable, Equatable {
        /// The node's id in the file, as text.
        public var key: String
        public var cell: NewCell
    }

    public struct Edge: Sendable, Equatable {
        public var source: Int
        public var target: Int
        public var distance: Double?
        public var strength: Double?
        public var attrs: Attrs?
    }

    public var nodes: [Node] = []
    /// By position in `nodes`.
    public var edges: [Edge] = []
    public var notes: [String] = []

    public struct Unreadable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads `bytes` as node-link JSON when they start with `{`, else as an edge list.
    public static func read(_ bytes: [UInt8]) throws(Unreadable) -> GraphFile {
        let unmarked = bytes.starts(with: [0xef, 0xbb, 0xbf]) ? bytes.dropFirst(3) : bytes[...]  // a UTF-8 byte order mark
        let start = unmarked.drop { $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }
        var reader = GraphReader()
        if start.first == UInt8(ascii: "{") {
            try reader.readNodeLink(Array(start))
        } else {
            try reader.readEdgeList(String(decoding: start, as: UTF8.self))
        }
        return reader.finished()
    }
}

/// Builds a `GraphFile`, counting what it had to change.
struct GraphReader {
    var graph = GraphFile()
    private var index: [String: Int] = [:]
    private var linked = Set<[Int]>()
    private var problems: [String: Int] = [:]
    private var problemOrder: [String] = []

    mutating func note(_ problem: String) {
        if problems[problem] == nil { problemOrder.append(problem) }
        problems[problem, default: 0] += 1
    }

    func finished() -> GraphFile {
        var graph = graph
        Self.weightsAsStrengths(&graph.edges)
        graph.notes = problemOrder.map { problem in
            let count = problems[problem]!
            return count == 1 ? "1 \(problem)" : "\(count) \(problem)"
        }
        return graph
    }

    /// A link's `weight` attribute (as networkx and Gephi write it) is its strength, over the
    /// heaviest link's so it lies in the wire's 0…1 (the graph model reads strengths against
    /// their mean: only their ratios matter). A link with a strength of its own keeps it; the
    /// weight stays among its attributes. Weights are used only when every weight given is a
    /// finite number at least 0 and one is above 0.
    static func weightsAsStrengths(_ edges: inout [GraphFile.Edge]) {
        var weights: [Int: Double] = [:]
        for (k, edge) in edges.enumerated() where edge.strength == nil {
            guard let value = edge.attrs?.members.first(where: { $0.key == "weight" })?.value else { continue }
            guard case .number(let weight) = value, weight.isFinite, weight >= 0 else { return }
            weights[k] = weight
        }
        guard let heaviest = weights.values.max(), heaviest > 0 else { return }
        for (k, weight) in weights { edges[k].strength = weight / heaviest }
    }

    /// The node named `key`, made (labelled by its key) when new.
    mutating func node(_ key: String, cell: NewCell? = nil) -> Int {
        if let known = index[key] { return known }
        var cell = cell ?? NewCell(data: CellData(label: fitted(key, limit: CellData.labelLimit, what: "label"),
                                                  key: try? CellKey.make(.string(key)).get()))
        if cell.data.label == nil { cell.data.label = fitted(key, limit: CellData.labelLimit, what: "label") }
        index[key] = graph.nodes.count
        graph.nodes.append(GraphFile.Node(key: key, cell: cell))
        return graph.nodes.count - 1
    }

    func known(_ key: String) -> Int? { index[key] }

    /// Adds an edge between two nodes unless it loops or repeats.
    mutating func edge(_ source: Int, _ target: Int, distance: Double? = nil, strength: Double? = nil, attrs: Attrs? = nil) {
        guard source != target else { return note("self link(s) left out (a cell cannot link to itself)") }
        guard linked.insert([min(source, target), max(source, target)]).inserted else {
            return note("repeated link(s) left out (two cells link once)")
        }
        graph.edges.append(GraphFile.Edge(source: source, target: target, distance: distance, strength: strength, attrs: attrs))
    }

    /// `members` as attributes (nil when none), or nil with a note when they cannot be.
    mutating func attrs(_ members: [(key: String, value: JSONValue)], of what: String) -> Attrs? {
        switch Attrs.make(.object(members), maxBytes: .max) {
        case .success(let attrs): return attrs
        case .failure(let problem):
            note("\(what) attribute set(s) left out: they \(problem.why)")
            return nil
        }
    }

    /// `text` as a label or group: control characters become spaces, and it is cut to `limit`.
    mutating func fitted(_ text: String, limit: Int, what: String) -> String {
        var scalars = String.UnicodeScalarView()
        var count = 0
        var changed = false
        for scalar in text.unicodeScalars {
            if count == limit { changed = true; note("\(what)(s) cut to \(limit) characters"); break }
            if scalar.properties.generalCategory == .control {
                scalars.append(" ")
                if !changed { note("\(what)(s) with control characters (made spaces)") }
                changed = true
            } else {
                scalars.append(scalar)
            }
            count += 1
        }
        return String(scalars)
    }
}
