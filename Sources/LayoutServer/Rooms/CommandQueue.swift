import Synchronization

/// A layout command on its way from a connection to its room, with the way back for a
/// rejection (unknown ids and cell limits are only known when it is applied).
struct QueuedCommand: Sendable {
    let command: LayoutCommand
    let client: String
    let ref: String?
    let reject: @Sendable (ProtocolError) -> Void
}

/// A room's commands waiting for its next turn. Whoever pushes also wakes the room in the
/// step pool (`StepPool.wake`).
final class CommandQueue: Sendable {
    private let items = Mutex<[QueuedCommand]>([])

    func push(_ command: QueuedCommand) {
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
