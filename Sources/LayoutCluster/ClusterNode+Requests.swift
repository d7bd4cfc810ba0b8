import EventBus
import LayoutCore
import LayoutRooms

/// Relayed rooms' clients and their owners: what a relay sends (`RelayRequest`) and what the owner
/// does with it.
extension ClusterNode {
    // MARK: A relay's side (service thread)

    /// A message of a relayed room's client, for its owner.
    func forward(_ message: [UInt8], from client: String, role: Role, in room: RoomName) {
        send(.command(node: name, client: client, role: role, message: message), to: room)
    }

    func joined(_ client: String, _ room: RoomName, readsText: Bool) {
        send(.joined(node: name, client: client, readsText: readsText), to: room)
    }

    func left(_ client: String, _ room: RoomName) { send(.left(node: name, client: client), to: room) }

    func send(_ request: RelayRequest, to room: RoomName) {
        let keys = ClusterKeys(room)
        redis.submit(.init([
            RedisCommand.words("RPUSH", keys.requests) + [request.encoded],
            RedisCommand.words("PUBLISH", keys.nudge, ""),
        ]))
    }

    // MARK: The owner's side (command thread)

    /// Takes what relays asked of an owned room (up to 1000 at a time, until none wait), under
    /// its lease: a server that lost the room takes nothing meant for the new owner. `then`
    /// runs once none wait (or Redis did not answer), after the room has every one.
    func takeRequests(of room: Room, then: @escaping @Sendable () -> Void = {}) {
        // A room being handed off leaves what waits to the server that takes it.
        guard !state.withLock({ $0.handingOff.contains(room.name) }) else { return then() }
        let keys = ClusterKeys(room.name)
        redis.submitFenced(lease: keys.lease, holder: name, [RedisCommand.words("LPOP", keys.requests, "1000")],
                           refused: { [self] in leaseLost(room.name) }) { [self] reply in
            guard case .array(let items)? = reply else { return then() }
            for item in items {
                guard let bytes = item.bytes, let request = try? RelayRequest(decoding: bytes) else { continue }
                handle(request, in: room)
            }
            if items.count == 1000 { takeRequests(of: room, then: then) } else { then() }
        }
    }

    func handle(_ request: RelayRequest, in room: Room) {
        guard case .owner(_, let replicator)? = state.withLock({ $0.routes[room.name] }) else { return }
        switch request {
        case .command(let node, let client, let role, let message):
            let reply = reply(to: client, on: node)
            switch decoder.decode(message) {
            case .failure(let error):
                reply(ServerMessages.error(error))
            case .success(let decoded):
                // The relay refused what the role may not send; a request that says otherwise
                // is refused here too.
                guard role >= decoded.message.requiredRole else {
                    return reply(ServerMessages.error(decoded.message.refusal(to: role, ref: decoded.ref)))
                }
                let command: LayoutCommand
                switch decoded.message {
                case .layout(let layout): command = layout
                case .setAccess(let mode): command = .access(.mode(mode))
                case .deleteRoom: command = .access(.delete)
                case .subscribe, .replay, .rotate, .history, .moment: return  // the relay's own (a rotation comes as `access`)
                }
                room.commands.pushRelayed(QueuedCommand(command: command, client: client, ref: decoded.ref, reply: reply))
                wakeRoom.withLock { $0 }?(room)
            }
        case .access(let node, let client, let change):
            room.commands.pushRelayed(QueuedCommand(command: .access(change), client: client, ref: nil, reply: reply(to: client, on: node)))
            wakeRoom.withLock { $0 }?(room)
        case .joined(let node, let client, let readsText):
            if replicator.joined(client, on: node, local: false, readsText: readsText) { room.presence(.joined, of: client) }
            // Its frame needs the text form, which the frames so far may lack: one is published again.
            if readsText { requestTurn(.frameAgain, of: room) }
        case .left(_, let client):
            if replicator.left(client, local: false) {
                room.presence(.left, of: client)
            } else {
                // Not on the roster (it joined before a failover the roster did not record):
                // nobody is told it left, but it points no more.
                room.changePointers { $0.leave(client) }
            }
            // The cells it held by dragging are let go, as for a client of this server.
            requestTurn(.releaseDrags(client: client), of: room)
        case .data:
            requestTurn(.relayData, of: room)
        }
    }

    /// How a message for a relay's client (an error, its `undoable`) goes back to it: on its
    /// server's channel.
    private func reply(to client: String, on node: String) -> @Sendable ([UInt8]) -> Void {
        { [self] message in
            redis.submit(.init([RedisCommand.words("PUBLISH", ClusterKeys.node(node))
                + [NodeMessage.reply(client: client, message: message).encoded]]))
        }
    }

    /// `request` for the owned room's next turn, which it wakes.
    private func requestTurn(_ request: TurnRequest, of room: Room) {
        room.requests.push(request)
        wakeRoom.withLock { $0 }?(room)
    }
}
