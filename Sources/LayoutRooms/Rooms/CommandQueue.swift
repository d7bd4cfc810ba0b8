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
///
/// A room a cluster's server takes over holds its own connections' commands back (`hold`)
/// until it has what relays had asked of the room before (`pushRelayed`, from Redis, in
/// order): a connection here that was relayed until now sent its earlier commands that way,
/// and each connection's commands are applied in the order it sent them.
package final class CommandQueue: Sendable {
    private struct State {
        var items: [QueuedCommand] = []
        /// This server's connections' commands held back (nil: none are).
        var held: [QueuedCommand]?
    }
    private let state = Mutex(State())

    /// A command of a connection here.
    package func push(_ command: QueuedCommand) {
        state.withLock { state in
            if state.held != nil { state.held!.append(command) } else { state.items.append(command) }
        }
    }

    /// A command a relay sent (never held back).
    package func pushRelayed(_ command: QueuedCommand) {
        state.withLock { $0.items.append(command) }
    }

    /// From now on the commands of connections here wait for `release`.
    package func hold() {
        state.withLock { $0.held = $0.held ?? [] }
    }

    /// The commands held back follow those taken so far.
    package func release() {
        state.withLock { state in
            state.items += state.held ?? []
            state.held = nil
        }
    }

    var isEmpty: Bool { state.withLock { $0.items.isEmpty } }

    func drain() -> [QueuedCommand] {
        state.withLock { state in
            defer { state.items.removeAll(keepingCapacity: true) }
            return state.items
        }
    }
}
