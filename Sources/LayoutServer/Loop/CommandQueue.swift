import Dispatch
import Synchronization

/// A layout command on its way from a connection to the simulation thread, with the way
/// back for a rejection (unknown ids and cell limits are only known when it is applied).
struct QueuedCommand: Sendable {
    let command: LayoutCommand
    let client: String
    let ref: String?
    let reject: @Sendable (ProtocolError) -> Void
}

/// Commands waiting for the next step. Pushing wakes a simulation thread that is waiting.
final class CommandQueue: Sendable {
    private let items = Mutex<[QueuedCommand]>([])
    private let arrivals = DispatchSemaphore(value: 0)

    func push(_ command: QueuedCommand) {
        items.withLock { $0.append(command) }
        arrivals.signal()
    }

    func drain() -> [QueuedCommand] {
        items.withLock { items in
            defer { items.removeAll(keepingCapacity: true) }
            return items
        }
    }

    /// Sleeps until `deadline` or until something is pushed (or `interrupt` is called).
    func wait(until deadline: DispatchTime) {
        _ = arrivals.wait(timeout: deadline)
    }

    func interrupt() { arrivals.signal() }
}
