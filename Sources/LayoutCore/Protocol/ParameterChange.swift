import ForceLayout

/// A change to the parameters: the ones a client named, with their validated values.
/// Read and set one as `change.charge` (any parameter of `Parameters`), or by its table row.
@dynamicMemberLookup
public struct ParameterChange: Equatable, Sendable {
    /// Keyed by wire name.
    private var values: [String: ParameterValue] = [:]

    public init() {}

    /// The change that takes `old` to `new`: the values that differ, as `new` has them.
    public init(from old: Parameters, to new: Parameters) {
        for spec in Parameters.table where spec.value(in: old) != spec.value(in: new) {
            values[spec.name] = spec.value(in: new)
        }
    }

    public var isEmpty: Bool { values.isEmpty }

    public subscript(spec: ParameterSpec) -> ParameterValue? {
        get { values[spec.name] }
        set { values[spec.name] = newValue }
    }

    public subscript(dynamicMember path: WritableKeyPath<Parameters, Double>) -> Double? {
        get { if case .number(let value)? = self[Parameters.spec(for: path)] { value } else { nil } }
        set { self[Parameters.spec(for: path)] = newValue.map(ParameterValue.number) }
    }

    public subscript(dynamicMember path: WritableKeyPath<Parameters, Bool>) -> Bool? {
        get { if case .bool(let value)? = self[Parameters.spec(for: path)] { value } else { nil } }
        set { self[Parameters.spec(for: path)] = newValue.map(ParameterValue.bool) }
    }

    public subscript(dynamicMember path: WritableKeyPath<Parameters, String>) -> String? {
        get { if case .choice(let value)? = self[Parameters.spec(for: path)] { value } else { nil } }
        set { self[Parameters.spec(for: path)] = newValue.map(ParameterValue.choice) }
    }

    /// The parameters it sets, in table order, with their values.
    public var entries: [(spec: ParameterSpec, value: ParameterValue)] {
        Parameters.table.compactMap { spec in values[spec.name].map { (spec, $0) } }
    }

    /// `parameters` with this change applied, each value sanitised into its range (a no-op
    /// for what `MessageDecoder` accepted), and the names of the values that differ, in
    /// table order.
    public func applied(to parameters: Parameters) -> (Parameters, changed: [String]) {
        var result = parameters
        var changed: [String] = []
        for (spec, value) in entries {
            let value = spec.sanitized(value)
            guard spec.value(in: result) != value else { continue }
            spec.set(value, in: &result)
            changed.append(spec.name)
        }
        return (result, changed)
    }
}
