import ForceLayout
import LayoutCore

/// Node-link JSON: `{"nodes":[{"id":…,…}],"links":[{"source":…,"target":…}]}` (networkx 3.4
/// names them `edges`). A node's `label` is its `label`, else its `name`, else its id; `group`
/// may be a string or a number; `color`, `radius` (or d3's `r`), `x`, `y` are taken when valid.
/// A link's ends name nodes by id (or, as in d3 v3's examples, by position in `nodes`).
/// A node's `id` becomes its cell's `key` (a string or a number, as written), and every
/// member not drawn (all but `id` and the members `label`, `group`, `color`, `radius`/`r`,
/// `x`, `y` taken as the cell's fields; `name` stays even when it gave the label) its
/// `attrs`; a link's members but `source`, `target` and a valid `distance`, `strength` its
/// `attrs`.
extension GraphReader {
    mutating func readNodeLink(_ bytes: [UInt8]) throws(GraphFile.Unreadable) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes, maxDepth: 16)
        } catch {
            throw GraphFile.Unreadable(description: "not valid JSON: \(error)")
        }
        guard case .array(let nodes)? = root["nodes"] else {
            throw GraphFile.Unreadable(description: "node-link JSON needs a \"nodes\" array")
        }
        for (position, node) in nodes.enumerated() {
            guard let key = Self.key(node["id"]) ?? (node["id"] == nil ? String(position) : nil) else {
                note("node(s) left out: an id must be a string or a number")
                continue
            }
            guard known(key) == nil else {
                note("node(s) left out: their id repeats an earlier node's")
                continue
            }
            _ = self.node(key, cell: cell(node))
        }
        let links: [JSONValue]
        switch root["links"] ?? root["edges"] {
        case .array(let items)?: links = items
        case nil: links = []
        default: throw GraphFile.Unreadable(description: "\"links\" must be an array")
        }
        for link in links {
            guard let source = end(link["source"], count: nodes.count), let target = end(link["target"], count: nodes.count) else {
                note("link(s) left out: an end names no node")
                continue
            }
            let distance = number(link["distance"], in: 0...1e6, what: "distance")
            let strength = number(link["strength"], in: 0...1, what: "strength")
            var drawn: Set<String> = ["source", "target"]
            if distance != nil { drawn.insert("distance") }
            if strength != nil { drawn.insert("strength") }
            edge(source, target, distance: distance, strength: strength, attrs: attrs(of: link, except: drawn, what: "link"))
        }
    }

    private mutating func cell(_ node: JSONValue) -> NewCell {
        var cell = NewCell()
        var drawn: Set<String> = ["id"]
        let label = Self.text(node["label"]) ?? Self.text(node["name"]) ?? Self.key(node["id"])
        if Self.text(node["label"]) != nil { drawn.insert("label") }
        cell.data.label = label.map { fitted($0, limit: CellData.labelLimit, what: "label") }
        cell.data.group = Self.key(node["group"]).map { fitted($0, limit: CellData.groupLimit, what: "group") }
        if cell.data.group != nil { drawn.insert("group") }
        if let color = node["color"] {
            if case .string(let text) = color, let valid = CellData.color(text) {
                cell.data.color = valid
                drawn.insert("color")
            } else {
                note("colour(s) kept as attributes only: not \"#rrggbb\"")
            }
        }
        let radiusName = node["radius"] != nil ? "radius" : "r"
        cell.seed.radius = number(node[radiusName], in: Simulation.radiusRange, what: "radius")
        if cell.seed.radius != nil { drawn.insert(radiusName) }
        if case .number(let x)? = node["x"], case .number(let y)? = node["y"], abs(x) <= 1e9, abs(y) <= 1e9 {
            cell.seed.x = x
            cell.seed.y = y
            drawn.formUnion(["x", "y"])
        }
        if let id = node["id"] {
            switch CellKey.make(id) {
            case .success(let key): cell.data.key = key
            case .failure(let problem): note("id(s) not kept (exported as cell ids): an id must be \(problem.why)")
            }
        }
        cell.data.attrs = attrs(of: node, except: drawn, what: "node")
        return cell
    }

    private mutating func attrs(of item: JSONValue, except drawn: Set<String>, what: String) -> Attrs? {
        guard case .object(let members) = item else { return nil }
        return attrs(members.filter { !drawn.contains($0.key) }, of: what)
    }

    private func end(_ value: JSONValue?, count: Int) -> Int? {
        guard let key = Self.key(value) else { return nil }
        if let known = known(key) { return known }
        // d3 v3's examples: ends by position in `nodes`.
        if case .number(let number)? = value, number >= 0, number == number.rounded(), number < Double(graph.nodes.count) {
            return Int(number)
        }
        return nil
    }

    private mutating func number(_ value: JSONValue?, in range: ClosedRange<Double>, what: String) -> Double? {
        guard let value else { return nil }
        guard case .number(let number) = value, range.contains(number) else {
            note("\(what)(s) left out: not a number in [\(JSONText.number(range.lowerBound)), \(JSONText.number(range.upperBound))]")
            return nil
        }
        return number
    }

    /// A string, or a number written as an integer when it is one.
    static func key(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: return text
        case .number(let number)?: return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : JSONText.number(number)
        default: return nil
        }
    }

    private static func text(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }
}
