/// One physics parameter as everything outside the engine knows it: its wire name, where it
/// lives in `Parameters`, its range and default, and how a page shows it. The rows are in
/// `Parameters.table`; decoding, encoding, validation and sanitising all read them there.
public struct ParameterSpec: Sendable {
    public enum Kind: String, Sendable {
        case number, bool, choice
    }

    /// How a page shows the parameter: a slider (with a number box beside it), a number box
    /// alone (a range too wide for a slider), a checkbox, or a menu of named options.
    public enum Control: String, Sendable {
        case slider, field, toggle, menu
    }

    enum Storage: Sendable {
        case number(WritableKeyPath<Parameters, Double> & Sendable, default: Double, range: NumberRange, step: Double)
        case bool(WritableKeyPath<Parameters, Bool> & Sendable, default: Bool)
        case choice(WritableKeyPath<Parameters, String> & Sendable, default: String, options: [String])
    }

    /// The name in `params` messages, events, `hello` and the state file.
    public let name: String
    /// A short human name ("Cell size").
    public let label: String
    /// One sentence on what it does.
    public let description: String
    public let control: Control
    /// Whether cells move differently when it changes (so their damping goes stale, see
    /// `Rest`); not so for what only says when to stop or how often to step.
    public let movesCells: Bool
    /// The one physics it acts in (`LayoutModel.cells` or `.graph`); nil: both.
    public let physics: LayoutModel?
    let storage: Storage

    public var kind: Kind {
        switch storage {
        case .number: .number
        case .bool: .bool
        case .choice: .choice
        }
    }

    /// The accepted values of a number; nil for a bool.
    public var range: NumberRange? {
        guard case .number(_, _, let range, _) = storage else { return nil }
        return range
    }

    /// How far a slider moves at a time (a hint: any value in range is accepted); nil for a bool.
    public var step: Double? {
        guard case .number(_, _, _, let step) = storage else { return nil }
        return step
    }

    /// The names a choice may take, in the order a menu lists them; nil for other kinds.
    public var options: [String]? {
        guard case .choice(_, _, let options) = storage else { return nil }
        return options
    }

    public var defaultValue: ParameterValue {
        switch storage {
        case .number(_, let value, _, _): .number(value)
        case .bool(_, let value): .bool(value)
        case .choice(_, let value, _): .choice(value)
        }
    }

    public var keyPath: PartialKeyPath<Parameters> {
        switch storage {
        case .number(let path, _, _, _): path
        case .bool(let path, _): path
        case .choice(let path, _, _): path
        }
    }
}
