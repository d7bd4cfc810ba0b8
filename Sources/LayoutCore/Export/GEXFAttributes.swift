/// The user's attributes (`attrs`) as GEXF attribute columns: one `<attribute>` per name,
/// its type inferred from every value it has (`boolean` when all are booleans, `integer` or
/// `long` when all are whole numbers, `double` when all are numbers, else `string`), and each
/// value as its `attvalue`: a string as is, other values as their JSON text (GEXF has no lists
/// or objects), `null` left out. Names the export writes itself are left out.
struct GEXFAttributes {
    struct Column {
        let name: String
        let id: String
        var type: String
    }

    private(set) var columns: [Column] = []
    private var index: [String: Int] = [:]
    /// Each row's members that have a column (parsed once).
    private(set) var rows: [[(column: Int, value: JSONValue)]] = []

    /// `prefix`: the columns' ids (`n0`, `n1`… for nodes), distinct from the export's own.
    /// `skip`: whether a member is not to be a column value (a name the export writes itself,
    /// a numeric `weight` written as the edge's weight).
    init(_ attrs: [Attrs?], prefix: String, skip: (String, JSONValue) -> Bool) {
        var kinds: [Kind] = []
        for item in attrs {
            var row: [(column: Int, value: JSONValue)] = []
            for member in item?.members ?? [] where !skip(member.key, member.value) {
                if case .null = member.value { continue }
                let column: Int
                if let known = index[member.key] {
                    column = known
                } else {
                    column = columns.count
                    index[member.key] = column
                    columns.append(Column(name: member.key, id: "\(prefix)\(column)", type: "string"))
                    kinds.append(Kind.of(member.value))
                }
                kinds[column] = kinds[column].joined(Kind.of(member.value))
                row.append((column, member.value))
            }
            rows.append(row)
        }
        for (column, kind) in kinds.enumerated() { columns[column].type = kind.gexfType }
    }

    /// `<attribute …/>` for each column.
    func declarations(into out: inout XMLText) {
        for column in columns {
            out.raw("<attribute id=\"\(column.id)\" title=\"")
            out.text(column.name)
            out.raw("\" type=\"\(column.type)\"/>")
        }
    }

    /// `<attvalue …/>` for each value of row `row`.
    func values(of row: Int, into out: inout XMLText) {
        for (column, value) in rows[row] {
            out.raw("<attvalue for=\"\(columns[column].id)\" value=\"")
            out.text(Self.text(value, type: columns[column].type))
            out.raw("\"/>")
        }
    }

    private static func text(_ value: JSONValue, type: String) -> String {
        switch value {
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number) where type == "double" && number == number.rounded() && abs(number) < 1e15:
            return JSONText.number(number) + ".0"
        default:
            var writer = JSONWriter(reservingCapacity: 32)
            writer.value(value)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
    }

    /// What a column's values have been so far.
    private enum Kind {
        case bool, integer, long, double, string

        static func of(_ value: JSONValue) -> Kind {
            switch value {
            case .bool: return .bool
            case .number(let number):
                guard number == number.rounded(), abs(number) < 9_007_199_254_740_992 else { return .double }
                return abs(number) <= Double(Int32.max) ? .integer : .long
            default: return .string
            }
        }

        func joined(_ other: Kind) -> Kind {
            switch (self, other) {
            case (.bool, .bool): return .bool
            case (.integer, .integer): return .integer
            case (.integer, .long), (.long, .integer), (.long, .long): return .long
            case (.integer, .double), (.long, .double), (.double, .integer), (.double, .long), (.double, .double): return .double
            default: return .string
            }
        }

        var gexfType: String {
            switch self {
            case .bool: "boolean"
            case .integer: "integer"
            case .long: "long"
            case .double: "double"
            case .string: "string"
            }
        }
    }
}
