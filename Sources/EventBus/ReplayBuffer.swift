import DequeModule

/// How much history a bus keeps for replay: at most `events` envelopes and at most `bytes`
/// of them (as `BusEvent.replayBytes` counts them). Both bounds hold at once; an event larger
/// than `bytes` alone is delivered but not kept.
public struct ReplayBounds: Sendable, Equatable {
    public var events: Int
    public var bytes: Int

    public init(events: Int, bytes: Int = .max) {
        self.events = max(0, events)
        self.bytes = max(0, bytes)
    }
}

/// The most recent envelopes within `ReplayBounds`, oldest first: appending drops the oldest
/// until both bounds hold.
struct ReplayBuffer<Event: BusEvent> {
    let bounds: ReplayBounds
    private var storage: Deque<Envelope<Event>> = []
    /// `replayBytes` of the envelopes in `storage`.
    private(set) var bytes = 0

    init(bounds: ReplayBounds) {
        self.bounds = bounds
    }

    var count: Int { storage.count }

    mutating func append(_ envelope: Envelope<Event>) {
        let size = envelope.event.replayBytes
        guard bounds.events > 0, size <= bounds.bytes else {
            // Kept, it would push out everything else and still not fit: keep nothing older
            // than it either, so a replay never skips over it into older history.
            storage.removeAll()
            bytes = 0
            return
        }
        storage.append(envelope)
        bytes += size
        while storage.count > bounds.events || bytes > bounds.bytes {
            bytes -= storage.removeFirst().event.replayBytes
        }
    }

    /// The last `count` envelopes admitted by `filter`, oldest first.
    func last(_ count: Int, matching filter: KindFilter<Event.Kind>) -> [Envelope<Event>] {
        guard count > 0 else { return [] }
        var picked: [Envelope<Event>] = []
        // Newest to oldest, so we stop as soon as we have enough.
        for envelope in storage.reversed() where filter.admits(envelope.event.kind) {
            picked.append(envelope)
            if picked.count == count { break }
        }
        return picked.reversed()
    }
}
