import Synchronization

/// Typed publish/subscribe with a replay buffer bounded in events and in bytes.
///
/// Publishing is serialised, so every subscriber sees events in sequence order. Handlers run
/// on the publisher's thread, outside the bus's state lock: a handler may subscribe or cancel,
/// but must not publish on the same bus (that would deadlock).
public final class EventBus<Event: BusEvent>: Sendable {
    public typealias Handler = @Sendable (Envelope<Event>) -> Void

    struct Subscriber: Sendable {
        let token: UInt64
        var filter: KindFilter<Event.Kind>
        let handler: Handler
    }

    struct State: Sendable {
        var nextSeq: UInt64 = 1
        var buffer: ReplayBuffer<Event>
        /// In subscription order (tokens only grow, so appending keeps it sorted). A publish
        /// takes the array as it is, without copying its elements, and delivers outside the lock.
        var subscribers: [Subscriber] = []
        var nextToken: UInt64 = 1

        /// Where `token` is in `subscribers` (a binary search), if it is still there.
        func index(of token: UInt64) -> Int? {
            var low = 0, high = subscribers.count
            while low < high {
                let middle = (low + high) / 2
                if subscribers[middle].token < token { low = middle + 1 } else { high = middle }
            }
            return low < subscribers.count && subscribers[low].token == token ? low : nil
        }
    }

    private let state: Mutex<State>
    /// Held for a whole publish (stamp + delivery) so concurrent publishers cannot interleave.
    private let publishing = Mutex<Void>(())
    public let replayBounds: ReplayBounds

    public init(replay bounds: ReplayBounds = ReplayBounds(events: 256)) {
        replayBounds = bounds
        state = Mutex(State(buffer: ReplayBuffer(bounds: bounds)))
    }

    /// Stamps `event` with the next sequence number, stores it for replay and delivers it.
    @discardableResult
    public func publish(_ event: Event) -> Envelope<Event> {
        publishing.withLock { _ in
            let (envelope, subscribers) = state.withLock { state -> (Envelope<Event>, [Subscriber]) in
                let envelope = Envelope(seq: state.nextSeq, event: event)
                state.nextSeq += 1
                state.buffer.append(envelope)
                return (envelope, state.subscribers)
            }
            Self.deliver(envelope, to: subscribers)
            return envelope
        }
    }

    /// Publishes an event another bus stamped (a relay mirroring its room's owner): it keeps
    /// `envelope.seq`, and the next event published here follows it. An envelope at or below
    /// the last sequence number is dropped (returns false): each is delivered once. So is one
    /// above `EventBusBounds.maxSeq`, which no bus stamped.
    @discardableResult
    public func mirror(_ envelope: Envelope<Event>) -> Bool {
        guard envelope.seq <= EventBusBounds.maxSeq else { return false }
        return publishing.withLock { _ in
            let subscribers = state.withLock { state -> [Subscriber]? in
                guard envelope.seq >= state.nextSeq else { return nil }
                state.nextSeq = envelope.seq + 1
                state.buffer.append(envelope)
                return state.subscribers
            }
            guard let subscribers else { return false }
            Self.deliver(envelope, to: subscribers)
            return true
        }
    }

    /// To each subscriber whose filter admits it, in subscription order.
    private static func deliver(_ envelope: Envelope<Event>, to subscribers: [Subscriber]) {
        for subscriber in subscribers where subscriber.filter.admits(envelope.event.kind) {
            subscriber.handler(envelope)
        }
    }

    /// Numbering goes on after `seq` (a relay that missed events up to it): the next event
    /// mirrored or published carries a higher number. Nothing is delivered. A `seq` above
    /// `EventBusBounds.maxSeq` changes nothing (returns false).
    @discardableResult
    public func skip(through seq: UInt64) -> Bool {
        guard seq <= EventBusBounds.maxSeq else { return false }
        publishing.withLock { _ in
            state.withLock { $0.nextSeq = Swift.max($0.nextSeq, seq + 1) }
        }
        return true
    }

    /// Runs `body` with publishing held back, given the sequence number of the last event
    /// published (0: none yet): what `body` does comes after that event and before the next.
    public func withPublishingHeld<Result>(_ body: (UInt64) -> Result) -> Result {
        publishing.withLock { _ in body(state.withLock { $0.nextSeq } - 1) }
    }

    /// Subscribes and, atomically with it, returns the last `replayLast` matching events, so a
    /// new subscriber sees every event exactly once: either in the replay or delivered later.
    public func subscribe(
        _ filter: KindFilter<Event.Kind> = .all,
        replayLast: Int = 0,
        handler: @escaping Handler
    ) -> (subscription: Subscription<Event>, replayed: [Envelope<Event>]) {
        let (token, replayed) = state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.subscribers.append(Subscriber(token: token, filter: filter, handler: handler))
            return (token, state.buffer.last(replayLast, matching: filter))
        }
        return (Subscription(bus: self, token: token), replayed)
    }

    /// The last `count` events admitted by `filter`, oldest first.
    public func replay(last count: Int, _ filter: KindFilter<Event.Kind> = .all) -> [Envelope<Event>] {
        state.withLock { $0.buffer.last(count, matching: filter) }
    }

    /// Events the replay buffer holds now (what fits its bounds).
    public var replayCount: Int { state.withLock { $0.buffer.count } }

    /// The sequence number the next published event will carry.
    public var nextSeq: UInt64 { state.withLock { $0.nextSeq } }

    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    func cancel(token: UInt64) {
        state.withLock { state in
            if let index = state.index(of: token) { state.subscribers.remove(at: index) }
        }
    }

    func isActive(token: UInt64) -> Bool {
        state.withLock { $0.index(of: token) != nil }
    }

    func setFilter(_ filter: KindFilter<Event.Kind>, token: UInt64) {
        state.withLock { state in
            if let index = state.index(of: token) { state.subscribers[index].filter = filter }
        }
    }
}
