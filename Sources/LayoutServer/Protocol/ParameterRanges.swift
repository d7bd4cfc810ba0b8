/// The accepted range of every numeric parameter, as PROTOCOL.md states them.
public enum ParameterRanges {
    public struct Range: Sendable {
        public let name: String
        public let lower: Double
        public let upper: Double
        /// `stiffness` excludes 0: a layout with no spring would drift apart forever.
        public let lowerExclusive: Bool

        public func contains(_ value: Double) -> Bool {
            value.isFinite && (lowerExclusive ? value > lower : value >= lower) && value <= upper
        }

        public var text: String {
            "\(lowerExclusive ? "(" : "[")\(JSONText.number(lower)), \(JSONText.number(upper))]"
        }
    }

    public static let stiffness = Range(name: "stiffness", lower: 0, upper: 1, lowerExclusive: true)
    public static let charge = Range(name: "charge", lower: 0, upper: 1000, lowerExclusive: false)
    public static let cellSize = Range(name: "cellSize", lower: 1, upper: 200, lowerExclusive: false)
    public static let threshold = Range(name: "threshold", lower: 0, upper: 1e6, lowerExclusive: false)
    public static let tickRate = Range(name: "tickRate", lower: 1, upper: 120, lowerExclusive: false)
    public static let theta = Range(name: "theta", lower: 0, upper: 2, lowerExclusive: false)

    public static let numeric: [Range] = [stiffness, charge, cellSize, threshold, tickRate, theta]
    public static let booleanNames = ["collide", "paused"]
}

/// Small helpers to render values in messages the way the wire writes them.
enum JSONText {
    static func number(_ value: Double) -> String {
        var writer = JSONWriter(reservingCapacity: 24)
        writer.number(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
