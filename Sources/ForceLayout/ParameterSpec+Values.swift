/// A parameter's value, whichever its kind.
public enum ParameterValue: Equatable, Sendable {
    case number(Double)
    case bool(Bool)
    /// One of a choice's `options`, by name.
    case choice(String)
}

extension ParameterSpec {
    public func value(in parameters: Parameters) -> ParameterValue {
        switch storage {
        case .number(let path, _, _, _): .number(parameters[keyPath: path])
        case .bool(let path, _): .bool(parameters[keyPath: path])
        case .choice(let path, _, _): .choice(parameters[keyPath: path])
        }
    }

    /// Sets the parameter as given; a value of the other kind changes nothing.
    public func set(_ value: ParameterValue, in parameters: inout Parameters) {
        switch (storage, value) {
        case (.number(let path, _, _, _), .number(let number)): parameters[keyPath: path] = number
        case (.bool(let path, _), .bool(let flag)): parameters[keyPath: path] = flag
        case (.choice(let path, _, _), .choice(let name)): parameters[keyPath: path] = name
        default: break
        }
    }

    /// Whether the value is of this parameter's kind and in its range.
    public func accepts(_ value: ParameterValue) -> Bool {
        switch (storage, value) {
        case (.number(_, _, let range, _), .number(let number)): range.contains(number)
        case (.bool, .bool): true
        case (.choice(_, _, let options), .choice(let name)): options.contains(name)
        default: false
        }
    }

    /// The value brought into range: the nearest bound, or the default for NaN, a name that
    /// is not an option, or a value of another kind.
    public func sanitized(_ value: ParameterValue) -> ParameterValue {
        switch (storage, value) {
        case (.number(_, let fallback, let range, _), .number(let number)): .number(range.clamped(number, fallback: fallback))
        case (.bool, .bool): value
        case (.choice(_, _, let options), .choice(let name)) where options.contains(name): value
        default: defaultValue
        }
    }
}
