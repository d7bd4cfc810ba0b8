import LayoutCore
import LayoutRooms

/// A cluster server's client numbers' reservation (`ClientNumbering`) in Redis
/// (`ClusterKeys.nodeClients`), so `c7@b` is never handed out twice by server `b`, across its
/// restarts too: the cells a client added keep its id as their owner in the room's state. Each
/// read or write opens a connection of its own (a write comes once per 512 clients, on the
/// numbers' own queue, never on the service thread).
package struct ClientReservationKey: ClientReservationStore {
    let address: RedisAddress
    let node: String

    package init(address: RedisAddress, node: String) {
        self.address = address
        self.node = node
    }

    package func read() throws(StoreFailure) -> Int? {
        let reply = try command(["GET", ClusterKeys.nodeClients(node)])
        guard case .string = reply else { return nil }
        guard let text = reply.text, let reservation = Int(text), (1...(1 << 53)).contains(reservation) else {
            throw StoreFailure("\(ClusterKeys.nodeClients(node)) in Redis is not a client id reservation")
        }
        return reservation
    }

    /// Only this server writes its key (no two running servers share a name), in ascending order.
    package func write(_ reservation: Int) throws(StoreFailure) {
        let reply = try command(["SET", ClusterKeys.nodeClients(node), String(reservation)])
        guard reply.isOK else { throw StoreFailure("Redis refused to keep the client id reservation: \(reply.errorMessage ?? "?")") }
    }

    private func command(_ arguments: [String]) throws(StoreFailure) -> RedisReply {
        do {
            let connection = try RedisConnection(address, timeout: 2)
            let reply = try connection.command(arguments)
            if let error = reply.errorMessage { throw StoreFailure("Redis: \(error.prefix(200))") }
            return reply
        } catch let failure as StoreFailure {
            throw failure
        } catch {
            throw StoreFailure("cannot reach Redis: \(error)")
        }
    }
}
