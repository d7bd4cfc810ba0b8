/// The tight box of a frame's positions, in the `f32` the frame carries (the low bounds
/// rounded down and the high ones up, so every position lies inside).
public struct FrameBox: Equatable, Sendable {
    public let minX: Float, minY: Float, maxX: Float, maxY: Float

    /// A box as a frame or a keyframe carries it.
    package init(minX: Float, minY: Float, maxX: Float, maxY: Float) {
        (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
    }

    public init(xs: [Double], ys: [Double]) {
        var (lowX, lowY, highX, highY) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for index in 0..<min(xs.count, ys.count) {
            let x = xs[index], y = ys[index]
            guard x.isFinite, y.isFinite else { continue }
            lowX = Swift.min(lowX, x); highX = Swift.max(highX, x)
            lowY = Swift.min(lowY, y); highY = Swift.max(highY, y)
        }
        guard lowX <= highX else {
            (minX, minY, maxX, maxY) = (0, 0, 0, 0)
            return
        }
        (minX, maxX) = (Self.down(lowX), Self.up(highX))
        (minY, maxY) = (Self.down(lowY), Self.up(highY))
    }

    /// The origin and the scale that map [low, high] onto 0...65535.
    func quantizer(_ low: Float, _ high: Float) -> (Double, Double) {
        let extent = Double(high) - Double(low)
        return (Double(low), extent > 0 ? 65535 / extent : 0)
    }

    /// The nearest step, 0 for NaN and below, 65535 above: branch-free, so the loop over a
    /// frame's positions vectorizes (round half up, the same as away from zero here).
    @inline(__always)
    static func quantize(_ value: Double, from origin: Double, scale: Double) -> UInt16 {
        let scaled = (value - origin) * scale
        let clamped = scaled > 0 ? (scaled < 65535 ? scaled : 65535) : 0
        return UInt16(clamped + 0.5)
    }

    private static func down(_ value: Double) -> Float {
        let rounded = Float(Swift.max(Swift.min(value, Double(Float.greatestFiniteMagnitude)), -Double(Float.greatestFiniteMagnitude)))
        return Double(rounded) > value ? rounded.nextDown : rounded
    }

    private static func up(_ value: Double) -> Float {
        let rounded = Float(Swift.max(Swift.min(value, Double(Float.greatestFiniteMagnitude)), -Double(Float.greatestFiniteMagnitude)))
        return Double(rounded) < value ? rounded.nextUp : rounded
    }
}
