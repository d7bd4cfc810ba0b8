import LayoutCore
import LayoutRooms
import Logging

/// A room's state in Redis (`ClusterKeys.state`), as its file would hold it: written by the
/// owner only while it holds the lease (a script checks it in the same step), so a server that
/// lost its room to another, without knowing yet, cannot overwrite what the new owner writes.
struct RedisStateDestination: StateDestination {
    let room: RoomName
    let node: String
    let redis: RedisCommands
    let logger: Logger

    private static let writeScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[2], ARGV[2]) return 1 else return 0 end
        """

    private static let removeScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5]) else return 0 end
        """

    func write(_ state: SavedState) -> Bool {
        let keys = ClusterKeys(room)
        let result = redis.call([RedisCommand.eval(Self.writeScript, keys: [keys.lease, ClusterKeys.state(room)],
                                                   arguments: [Array(node.utf8), StateFile.bytes(of: state)])])
        switch result {
        case .success(let replies) where replies.first == .integer(1):
            return true
        case .success(let replies):
            logger.error("room \(room): state not written to Redis: \(replies.first?.errorMessage ?? "this server no longer holds its lease")")
            return false
        case .failure(let failure):
            logger.error("room \(room): state not written to Redis: \(failure)")
            return false
        }
    }

    /// A forgotten room: its state, its copy for joiners, its events and its history go.
    func remove() {
        let keys = ClusterKeys(room)
        _ = redis.call([RedisCommand.eval(Self.removeScript, keys: [keys.lease, ClusterKeys.state(room), keys.mirror, keys.events, keys.history],
                                          arguments: RedisCommand.words(node))])
    }
}
