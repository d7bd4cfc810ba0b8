import Foundation

/// The one measured window every shard of a run shares: it opens `warmup` seconds after the
/// last shard is ready (its clients connected, the layout set up) or after the connect
/// deadline, and lasts `seconds`. Any shard may stop the run (a refused set-up); the
/// coordinator waits here for the window to sample the server at its ends, and releases the
/// shards (which keep their connections open until then, so the server's count of clients
/// after the window still holds them).
public final class RunSchedule: @unchecked Sendable {
    public struct Window: Equatable, Sendable {
        public var from: Double
        public var to: Double
    }

    private let condition = NSCondition()
    private let shards: Int
    private let warmup: Double
    private let seconds: Double
    private let deadline: Double
    private var ready = 0
    private var window: Window?
    private var stopReason: String?
    private var isReleased = false

    public init(shards: Int, warmup: Double, seconds: Double, deadline: Double) {
        self.shards = shards
        self.warmup = warmup
        self.seconds = seconds
        self.deadline = deadline
    }

    /// A shard has all its clients connected (or failed) and its set-up sent.
    public func shardReady(now: Double) {
        locked { ready += 1 }
        _ = window(now: now)
    }

    /// The window, fixed by the first call after every shard is ready or the deadline passed.
    public func window(now: Double) -> Window? {
        locked {
            if window == nil, ready >= shards || now >= deadline {
                window = Window(from: now + warmup, to: now + warmup + seconds)
                condition.broadcast()
            }
            return window
        }
    }

    public func stop(_ reason: String) {
        locked {
            if stopReason == nil { stopReason = reason }
            condition.broadcast()
        }
    }

    public var stopped: String? { locked { stopReason } }

    /// The coordinator has sampled the server after the window: the shards may close.
    public func release() { locked { isReleased = true } }

    public var released: Bool { locked { isReleased } }

    /// Blocks until the window is fixed (nil: the run stopped first, or `until` passed).
    public func waitForWindow(until: Date) -> Window? {
        condition.lock()
        defer { condition.unlock() }
        while window == nil, stopReason == nil, condition.wait(until: until) {}
        return stopReason == nil ? window : nil
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
