import LayoutCore
import Synchronization

/// A layout command on its way from a connection to its room, with the way back for a
/// rejection (unknown ids and cell limits are only known when it is applied).
package struct QueuedCommand: Sendable {
    package let command: LayoutCommand
    package let client: String
    package let ref: String?
    let reject: @Sendable (ProtocolError) -> Void

    package init(command: LayoutCommand, client: String, ref: String?, reject: @escaping @Sendable (ProtocolError) -> Void) {
        self.command = command
        self.client = client
        self.ref = ref
        self.reject = reject
    }
}

/// A room's commands waiting for its next turn. Whoever pushes also wakes the room in the
/// step pool (`StepPool.wake`).
package final class CommandQueue: Sendable {
    private let items = Mutex<[QueuedCommand]>([])

    package func push(_ command: QueuedCommand) {
        items.withLock { $0.append(command) }
    }

    var isEmpty: Bool { items.withLock { $0.isEmpty } }

    func drain() -> [QueuedCommand] {
        items.withLock { items in
            defer { items.removeAll(keepingCapacity: true) }
            return items
        }
    }
}
