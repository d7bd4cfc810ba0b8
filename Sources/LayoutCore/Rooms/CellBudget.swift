import Synchronization

/// The cells every room in memory holds together, under `--max-total-cells`. Rooms step on
/// different threads, so an add takes its cells from here atomically before it happens, and
/// a removal (or a room leaving memory) gives them back.
public final class CellBudget: Sendable {
    public let limit: Int
    private let used = Atomic<Int>(0)

    public init(limit: Int) { self.limit = limit }

    public var total: Int { used.load(ordering: .relaxed) }

    /// Takes `count` cells if the total stays within the limit; false changes nothing.
    public func take(_ count: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while current + count <= limit {
            let (exchanged, original) = used.compareExchange(expected: current, desired: current + count,
                                                              ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Takes `count` cells whatever the limit: a room loaded from its file holds what it holds.
    public func force(_ count: Int) { used.add(count, ordering: .relaxed) }

    public func give(_ count: Int) { used.subtract(count, ordering: .relaxed) }
}
