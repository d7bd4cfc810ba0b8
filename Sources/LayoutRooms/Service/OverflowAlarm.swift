import Synchronization

/// Raised by a mailbox (any thread) when it overflows, taken by the service thread on its
/// next wake: only then does it look for connections to close, instead of checking every
/// connection on every wake.
package final class OverflowAlarm: Sendable {
    package init() {}

    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .releasing) }

    /// True once after any number of raises.
    package func take() -> Bool { raised.exchange(false, ordering: .acquiringAndReleasing) }
}
