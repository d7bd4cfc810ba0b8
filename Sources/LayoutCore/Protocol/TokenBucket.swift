/// Per-connection message rate limit: `rate` tokens a second up to `burst`; each message takes one.
public struct TokenBucket: Sendable {
    public let rate: Double
    public let burst: Double
    private var tokens: Double
    private var last: Double

    /// `now` is in seconds on any monotonic clock.
    public init(rate: Double, burst: Double, now: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
        last = now
    }

    public mutating func take(now: Double) -> Bool {
        tokens = min(burst, tokens + max(0, now - last) * rate)
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
