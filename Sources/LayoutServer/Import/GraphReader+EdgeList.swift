import Foundation

/// A CSV or TSV edge list: a line per link, its first two columns naming the ends (tabs, else
/// commas, else spaces; `"quoted, fields"` allowed); `#` comments and blank lines skipped. The
/// first line is a header when its first two columns are names such as `source,target`
/// (Gephi's edge tables), `from,to` or `node1,node2`. Nodes come in order of first mention,
/// labelled by their names.
extension GraphReader {
    static let headerNames: Set<String> = ["source", "target", "from", "to", "node1", "node2", "id1", "id2", "u", "v"]

    mutating func readEdgeList(_ text: String) throws(GraphFile.Unreadable) {
        var first = true
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = Self.fields(line)
            defer { first = false }
            if first, fields.count >= 2, Self.headerNames.contains(fields[0].lowercased()),
               Self.headerNames.contains(fields[1].lowercased()) { continue }
            guard fields.count >= 2, !fields[0].isEmpty, !fields[1].isEmpty else {
                note("line(s) left out: fewer than two columns")
                continue
            }
            edge(node(fields[0]), node(fields[1]))
        }
        guard !graph.nodes.isEmpty else {
            throw GraphFile.Unreadable(description: "no links found: expected node-link JSON or an edge list (two columns a line)")
        }
    }

    /// The line's fields: split by tabs if it has any, else commas, else runs of spaces.
    static func fields(_ line: String) -> [String] {
        let separator: Character = line.contains("\t") ? "\t" : (line.contains(",") ? "," : " ")
        var fields: [String] = []
        var current = ""
        var quoted = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            if character == "\"" {
                quoted.toggle()
            } else if character == separator && !quoted {
                if separator != " " || !current.isEmpty { fields.append(current.trimmingCharacters(in: .whitespaces)) }
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current.trimmingCharacters(in: .whitespaces))
        return fields
    }
}
