import Foundation

/// A CSV or TSV edge list: a line per link, its first two columns naming the ends (tabs, else
/// commas, else spaces; `"quoted, fields"` allowed); `#` comments and blank lines skipped. The
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
        for line in Self.lines(text) {
            let fields: [String]
            if let ascii = Self.asciiFields(line) {
                fields = ascii
            } else {
                let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                if text.isEmpty || text.hasPrefix("#") { continue }
                fields = Self.fields(text)
            }
            if fields.isEmpty || fields[0].hasPrefix("#") { continue }
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

    /// The text's lines as UTF-8 (split at \n, \r\n and \r), empty ones left out. Bytes, not
    /// characters: a 7.5 MB edge list took 4-6 s to read by `Character` (grapheme clusters).
    static func lines(_ text: String) -> [ArraySlice<UInt8>] {
        let bytes = Array(text.utf8)
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A || byte == 0x0D {
            if index > start { lines.append(bytes[start..<index]) }
            start = index + 1
        }
        if start < bytes.count { lines.append(bytes[start...]) }
        return lines
    }

    /// `fields` of a line of plain ASCII without quotes, straight from its bytes; nil for any
    /// other line (the `Character` path then reads it). An empty or blank line has no fields.
    static func asciiFields(_ line: ArraySlice<UInt8>) -> [String]? {
        let quote = UInt8(ascii: "\""), tab = UInt8(ascii: "\t"), comma = UInt8(ascii: ","), space = UInt8(ascii: " ")
        func blank(_ byte: UInt8) -> Bool { byte == space || byte == tab || byte == 0x0B || byte == 0x0C }
        guard line.allSatisfy({ $0 < 0x80 && $0 != quote }) else { return nil }
        var lower = line.startIndex, upper = line.endIndex
        while lower < upper, blank(line[lower]) { lower += 1 }
        while upper > lower, blank(line[upper - 1]) { upper -= 1 }
        let trimmed = line[lower..<upper]
        guard !trimmed.isEmpty else { return [] }
        let separator = trimmed.contains(tab) ? tab : (trimmed.contains(comma) ? comma : space)
        var fields: [String] = []
        for part in trimmed.split(separator: separator, omittingEmptySubsequences: separator == space) {
            var a = part.startIndex, b = part.endIndex
            while a < b, blank(part[a]) { a += 1 }
            while b > a, blank(part[b - 1]) { b -= 1 }
            fields.append(String(decoding: part[a..<b], as: UTF8.self))
        }
        return fields
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
