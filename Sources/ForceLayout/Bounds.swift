/// An axis-aligned rectangle in world coordinates.
public struct Bounds: Codable, Equatable, Sendable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }

    /// Whether a point lies inside or on the edge.
    public func contains(x: Double, y: Double) -> Bool {
        x >= minX && x <= maxX && y >= minY && y <= maxY
    }
}

/// Interpolates without computing `b - a`, which can overflow for far-apart finite values;
/// the result is clamped to [a, b] because rounding may step an ulp outside.
@inline(__always)
func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double {
    let r = a * (1 - t) + b * t
    return Swift.min(Swift.max(r, Swift.min(a, b)), Swift.max(a, b))
}
