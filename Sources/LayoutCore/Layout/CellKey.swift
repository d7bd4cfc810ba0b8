/// A cell's id in the user's data (a node-link file's node `id`): a string of at most
/// `byteLimit` bytes of UTF-8, or a finite number. The server neither needs nor enforces it
/// to be unique; the exports write it as the node's id (`LayoutExport.nodeIDs`). A number
/// keeps its type: `0` comes back `0`, not `"0"` (an integral number is written without a
/// fraction, so a file's `1.0` comes back `1`).
public enum CellKey: Hashable, Sendable {
    case string(String)
    case number(Double)

    public static let byteLimit = 200

    /// The key `value` is, or why it cannot be one.
    package static func make(_ value: JSONValue) -> Result<CellKey, KeyProblem> {
        switch value {
        case .string(let text):
            guard text.utf8.count <= byteLimit else { return .failure(KeyProblem(why: "at most \(byteLimit) bytes of UTF-8")) }
            return .success(.string(text))
        case .number(let number):
            guard number.isFinite else { return .failure(KeyProblem(why: "a finite number")) }
            return .success(.number(number))
        default:
            return .failure(KeyProblem(why: "a string or a number, not \(value.typeName)"))
        }
    }

    package struct KeyProblem: Error {
        package let why: String
    }

    /// As text: the string, or the number as JSON writes it (GEXF's node id).
    public var text: String {
        switch self {
        case .string(let text): text
        case .number(let number): JSONText.number(number)
        }
    }

    public var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): .number(number)
        }
    }
}

extension JSONWriter {
    mutating func cellKey(_ key: CellKey) {
        switch key {
        case .string(let text): string(text)
        case .number(let number): self.number(number)
        }
    }
}
