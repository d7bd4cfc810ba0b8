import Foundation
import LayoutCore

/// A CSV or TSV edge list: a record per link (a line, or more when a quoted field holds line
/// breaks), its first two columns naming the ends (tabs, else commas, else spaces; quoted fields
/// as RFC 4180 has them, `DelimitedText`); `#` comments and blank lines skipped. The
/// first line is a header when its first two columns are names such as `source,target`
/// (Gephi's edge tables), `from,to` or `node1,node2`. Nodes come in order of first mention,
/// labelled by their names, keyed by them (strings). Further columns are the link's `attrs`,
/// named by the header (without one, a third column is `weight`, and any after it is left
/// out); a value that is a JSON number is kept as a number, any other as a string, an empty
/// one left out.
extension GraphReader {
    static let headerNames: Set<String> = ["source", "target", "from", "to", "node1", "node2", "id1", "id2", "u", "v"]

    mutating func readEdgeList(_ text: String) throws(GraphFile.Unreadable) {
        var first = true
        var names: [String] = []
        for fields in DelimitedText.records(text) {
            if fields[0].hasPrefix("#") { continue }
            defer { first = false }
            if first, fields.count >= 2, Self.headerNames.contains(fields[0].lowercased()),
               Self.headerNames.contains(fields[1].lowercased()) {
                names = fields.enumerated().map { $1.isEmpty ? "column\($0 + 1)" : $1 }
                continue
            }
            guard fields.count >= 2, !fields[0].isEmpty, !fields[1].isEmpty else {
                note("line(s) left out: fewer than two columns")
                continue
            }
            let (source, target) = (node(fields[0]), node(fields[1]))
            edge(source, target, attrs: columns(fields, names: names))
        }
        guard !graph.nodes.isEmpty else {
            throw GraphFile.Unreadable(description: "no links found: expected node-link JSON or an edge list (two columns a line)")
        }
    }

    /// A line's fields after the first two, as attributes named by `names` (the header).
    private mutating func columns(_ fields: [String], names: [String]) -> Attrs? {
        guard fields.count > 2 else { return nil }
        var members: [(key: String, value: JSONValue)] = []
        for (index, field) in fields.enumerated().dropFirst(2) where !field.isEmpty {
            let name: String
            if index < names.count {
                name = names[index]
            } else if names.isEmpty && index == 2 {
                name = "weight"
            } else {
                note("column(s) left out: no name in the header")
                continue
            }
            guard !members.contains(where: { $0.key == name }) else { continue }
            if case .number(let number)? = try? JSONParser.parse(field, maxDepth: 1), number.isFinite {
                members.append((name, .number(number)))
            } else {
                members.append((name, .string(field)))
            }
        }
        return attrs(members, of: "link")
    }
}
