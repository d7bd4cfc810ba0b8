import LayoutCore
import Synchronization

/// A layout command on its way from a connection to its room, with the way back to that
/// connection: for a rejection (unknown ids and cell limits are only known when it is
/// applied), and for its `undoable` news.
package struct QueuedCommand: Sendable {
    package let command: LayoutCommand
    package let client: String
    package let ref: String?
    /// Sends a whole message to the connection (on a relay's server, through Redis).
    let reply: @Sendable ([UInt8]) -> Void

    package init(command: LayoutCommand, client: String, ref: String?, reply: @escaping @Sendable ([UInt8]) -> Void) {
        self.command = command
        self.client = client
        self.ref = ref
        self.reply = reply
    }

    func reject(_ error: ProtocolError) { reply(ServerMessages.error(error)) }
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
