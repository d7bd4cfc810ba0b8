/// Parameters as a JSON object keyed by their wire names (the state file's `parameters`).
extension Parameters: Codable {
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Missing keys take their defaults, so a partial or older document still decodes.
    /// Values are not range-checked here: the state file validates them.
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: Key.self)
        for spec in Self.table {
            let key = Key(stringValue: spec.name)
            let value: ParameterValue? = switch spec.kind {
            case .number: try container.decodeIfPresent(Double.self, forKey: key).map(ParameterValue.number)
            case .bool: try container.decodeIfPresent(Bool.self, forKey: key).map(ParameterValue.bool)
            case .choice: try container.decodeIfPresent(String.self, forKey: key).map(ParameterValue.choice)
            }
            if let value { spec.set(value, in: &self) }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for spec in Self.table {
            let key = Key(stringValue: spec.name)
            switch spec.value(in: self) {
            case .number(let value): try container.encode(value, forKey: key)
            case .bool(let value): try container.encode(value, forKey: key)
            case .choice(let value): try container.encode(value, forKey: key)
            }
        }
    }
}
