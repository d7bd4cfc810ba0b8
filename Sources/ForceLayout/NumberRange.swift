/// The values a number parameter accepts: finite, from `lower` (included unless
/// `lowerExclusive`) to `upper` (included).
public struct NumberRange: Equatable, Sendable {
    public let lower: Double
    public let upper: Double
    /// `stiffness` excludes 0: a layout with no spring would drift apart forever.
    public let lowerExclusive: Bool

    public init(_ bounds: ClosedRange<Double>, lowerExclusive: Bool = false) {
        lower = bounds.lowerBound
        upper = bounds.upperBound
        self.lowerExclusive = lowerExclusive
    }

    public func contains(_ value: Double) -> Bool {
        value.isFinite && (lowerExclusive ? value > lower : value >= lower) && value <= upper
    }

    /// The value itself when in range (-0 stays -0), else the nearest value in range (the
    /// smallest one above an excluded bound); `fallback` for NaN.
    public func clamped(_ value: Double, fallback: Double) -> Double {
        guard !value.isNaN else { return fallback }
        let smallest = lowerExclusive ? lower.nextUp : lower
        return value < smallest ? smallest : value > upper ? upper : value
    }
}
