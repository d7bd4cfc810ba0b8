/// A live subscription. Cancelling it, or releasing the last reference to it, ends delivery,
/// so a connection that goes away leaks nothing on the bus.
public final class Subscription<Event: BusEvent>: Sendable {
    private let bus: EventBus<Event>
    private let token: UInt64

    init(bus: EventBus<Event>, token: UInt64) {
        self.bus = bus
        self.token = token
    }

    deinit { bus.cancel(token: token) }

    public func cancel() { bus.cancel(token: token) }

    public var isActive: Bool { bus.isActive(token: token) }

    /// Changes which kinds are delivered from the next publish on, with no gap and no repeat.
    public func setFilter(_ filter: KindFilter<Event.Kind>) { bus.setFilter(filter, token: token) }
}
