/// One limit of `Limits`, as `Limits.table` declares it: its key in `hello.limits` (the
/// property's name; `serve`'s flag is the same in kebab case), its default, the values `serve`
/// accepts and its help text.
public struct LimitSpec: Sendable {
    package enum Storage: Sendable {
        case count(WritableKeyPath<Limits, Int> & Sendable, default: Int)
        case rate(WritableKeyPath<Limits, Double> & Sendable, default: Double)
    }

    /// The values `serve` accepts: from `lower` (excluded when `lowerExclusive`) to `upper`
    /// (nil: no bound but the type's).
    public struct Bounds: Sendable {
        public let lower: Double
        public let upper: Double?
        public let lowerExclusive: Bool

        /// What the error of a value out of bounds says: "at least 1", "in 1...3600", "positive".
        public var text: String {
            if let upper { return "in \(Self.number(lower))...\(Self.number(upper))" }
            return lowerExclusive && lower == 0 ? "positive" : "at least \(Self.number(lower))"
        }

        func contains(_ value: Double) -> Bool {
            value.isFinite && (lowerExclusive ? value > lower : value >= lower) && value <= (upper ?? .infinity)
        }

        /// `value` as `serve` shows it: a whole number without a decimal point.
        static func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
    }

    public let key: String
    let storage: Storage
    public let bounds: Bounds
    /// The unit `serve`'s errors name after a range ("seconds"), if any.
    let unit: String?
    public let help: String

    /// `--max-cells` for `maxCells`.
    public var flag: String {
        "--" + key.map { $0.isUppercase ? "-" + $0.lowercased() : String($0) }.joined()
    }

    /// Whether the limit is a whole number (`count`) or a rate.
    public var isCount: Bool {
        if case .count = storage { return true }
        return false
    }

    /// The default, as a number.
    public var defaultValue: Double {
        switch storage {
        case .count(_, let value): Double(value)
        case .rate(_, let value): value
        }
    }

    /// Its value in `limits`.
    public func value(in limits: Limits) -> Double {
        switch storage {
        case .count(let path, _): Double(limits[keyPath: path])
        case .rate(let path, _): limits[keyPath: path]
        }
    }

    /// `value` into `limits`; false (nothing changed) when it is out of bounds or, for a
    /// count, not a whole number.
    @discardableResult
    public func set(_ value: Double, in limits: inout Limits) -> Bool {
        guard bounds.contains(value) else { return false }
        switch storage {
        case .count(let path, _):
            guard value == value.rounded(), value < 9.2e18 else { return false }
            limits[keyPath: path] = Int(value)
        case .rate(let path, _):
            limits[keyPath: path] = value
        }
        return true
    }

    /// Why `serve` refuses a value out of bounds: "--max-cells must be at least 1".
    public var boundsError: String {
        "\(flag) must be \(bounds.text)" + (unit.map { " \($0)" } ?? "")
    }
}

extension LimitSpec {
    static func count(_ key: String, _ path: WritableKeyPath<Limits, Int> & Sendable, default value: Int,
                      atLeast lower: Int, atMost upper: Int? = nil, unit: String? = nil, _ help: String) -> LimitSpec {
        LimitSpec(key: key, storage: .count(path, default: value),
                  bounds: Bounds(lower: Double(lower), upper: upper.map(Double.init), lowerExclusive: false),
                  unit: unit, help: help)
    }

    static func rate(_ key: String, _ path: WritableKeyPath<Limits, Double> & Sendable, default value: Double,
                     above lower: Double? = nil, atLeast least: Double? = nil, _ help: String) -> LimitSpec {
        LimitSpec(key: key, storage: .rate(path, default: value),
                  bounds: Bounds(lower: lower ?? least ?? 0, upper: nil, lowerExclusive: lower != nil), unit: nil, help: help)
    }
}
