/// A fixed-capacity ring of the most recent envelopes, oldest first.
struct ReplayBuffer<Event: BusEvent> {
    let capacity: Int
    private var storage: [Envelope<Event>] = []
    private var head = 0  // index of the oldest element once the ring is full

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        storage.reserveCapacity(self.capacity)
    }

    mutating func append(_ envelope: Envelope<Event>) {
        guard capacity > 0 else { return }
        if storage.count < capacity {
            storage.append(envelope)
        } else {
            storage[head] = envelope
            head = (head + 1) % capacity
        }
    }

    /// The last `count` envelopes admitted by `filter`, oldest first.
    func last(_ count: Int, matching filter: KindFilter<Event.Kind>) -> [Envelope<Event>] {
        guard count > 0, !storage.isEmpty else { return [] }
        var picked: [Envelope<Event>] = []
        picked.reserveCapacity(min(count, storage.count))
        // Walk newest to oldest so we stop as soon as we have enough.
        var offset = storage.count - 1
        while offset >= 0 && picked.count < count {
            let envelope = storage[(head + offset) % storage.count]
            if filter.admits(envelope.event.kind) { picked.append(envelope) }
            offset -= 1
        }
        return picked.reversed()
    }
}
