import ForceLayout

/// The members of a message object, consumed one by one so that leftovers (unknown fields)
/// can be rejected, with typed accessors that throw protocol errors naming the field.
package struct Fields {
    private var members: [(key: String, value: JSONValue)]
    package var context: String

    /// World coordinates accepted from clients: far beyond any layout, well inside Double.
    package static let coordinateLimit = 1e9

    package init(value: JSONValue, context: String = "message") {
        if case .object(let members) = value { self.members = members } else { members = [] }
        self.context = context
    }

    package var remainingKeys: [String] { members.map(\.key) }

    package mutating func take(_ key: String) -> JSONValue? {
        guard let index = members.firstIndex(where: { $0.key == key }) else { return nil }
        return members.remove(at: index).value
    }

    package func rejectLeftovers() throws(ProtocolError) {
        if let key = members.first?.key {
            throw ProtocolError(.badRequest, "unknown field \(Excerpt.quoted(key, limit: 64)) in \(context)")
        }
    }

    private func name(_ key: String) -> String { "\(context).\(key)" }

    /// An integral number within `range`, or nil when absent.
    package mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(ProtocolError) -> Int? {
        guard let value = take(key) else { return nil }
        guard case .number(let number) = value else {
            throw ProtocolError(.badRequest, "\(name(key)) must be an integer, not \(value.typeName)")
        }
        guard number.isFinite, number == number.rounded(), abs(number) < 9e15 else {
            throw ProtocolError(.badRequest, "\(name(key)) must be an integer, not \(JSONText.number(number))")
        }
        let integer = Int(number)
        guard range.contains(integer) else {
            let upper = range.upperBound == Int.max ? "" : "\(range.upperBound)"
            throw ProtocolError(.badRequest, "\(name(key)) must be in [\(range.lowerBound), \(upper.isEmpty ? "∞" : upper)], not \(integer)")
        }
        return integer
    }

    package static func positiveInteger(_ value: JSONValue) -> Int? {
        guard case .number(let number) = value, number.isFinite, number == number.rounded(),
              number >= 1, number < 9e15 else { return nil }
        return Int(number)
    }

    /// A boolean, or nil when absent.
    package mutating func boolean(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = take(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw ProtocolError(.badRequest, "\(name(key)) must be true or false, not \(value.typeName)")
        }
        return flag
    }

    package mutating func cellID(_ key: String) throws(ProtocolError) -> CellID {
        guard let value = take(key) else { throw ProtocolError(.badRequest, "\(context) needs \(key)") }
        guard let id = Fields.positiveInteger(value) else {
            throw ProtocolError(.badRequest, "\(name(key)) must be a positive integer cell id, not \(describe(value))")
        }
        return id
    }

    package mutating func coordinate(_ key: String) throws(ProtocolError) -> Double {
        guard let value = take(key) else { throw ProtocolError(.badRequest, "\(context) needs \(key)") }
        guard case .number(let number) = value else {
            throw ProtocolError(.badRequest, "\(name(key)) must be a number, not \(value.typeName)")
        }
        guard number.isFinite, abs(number) <= Fields.coordinateLimit else {
            throw ProtocolError(.badRequest, "\(name(key)) must be a finite number within ±1e9")
        }
        return number
    }

    /// The parameter's value if present, of its kind and in its range or among its options
    /// (`Parameters.table`).
    package mutating func parameter(_ spec: ParameterSpec) throws(ProtocolError) -> ParameterValue? {
        guard let value = take(spec.name) else { return nil }
        switch (spec.kind, value) {
        case (.number, .number(let number)) where spec.accepts(.number(number)): return .number(number)
        case (.number, _):
            let range = spec.range.map(\.text) ?? "its range"
            throw ProtocolError(.badRequest, "\(spec.name) must be a finite number in \(range), not \(describe(value))")
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.bool, _): throw ProtocolError(.badRequest, "\(spec.name) must be true or false, not \(describe(value))")
        case (.choice, .string(let name)) where spec.accepts(.choice(name)): return .choice(name)
        case (.choice, _): throw ProtocolError(.badRequest, "\(spec.name) must be one of \(spec.optionsText), not \(describe(value))")
        }
    }

    /// `"all"` or an array of event kind names; nil when absent.
    package mutating func kinds(_ key: String) throws(ProtocolError) -> EventSelection? {
        guard let value = take(key) else { return nil }
        switch value {
        case .string("all"): return .all
        case .array(let elements):
            var kinds = Set<EventKind>()
            for element in elements {
                guard case .string(let text) = element, let kind = EventKind(rawValue: text) else {
                    let known = EventKind.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ProtocolError(.badRequest, "\(name(key)) has unknown event kind \(describe(element)) (known: \(known))")
                }
                kinds.insert(kind)
            }
            return .only(kinds)
        default:
            throw ProtocolError(.badRequest, "\(name(key)) must be \"all\" or an array of event kinds, not \(describe(value))")
        }
    }
}
