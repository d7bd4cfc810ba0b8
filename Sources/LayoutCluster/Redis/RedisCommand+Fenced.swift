import LayoutCore

/// Fencing a room's lease holder (`ClusterNode`, `RoomReplicator`): what relays read of a room
/// comes only from the server Redis names as its holder.
extension RedisCommand {
    /// `commands`, run in one step unless `lease` names another server than `holder`: a server
    /// that lost a room's lease (it was stuck, or cut off) cannot publish or take anything of
    /// the room once another server holds it (`Fenced.refused`). A lease nobody holds (Redis
    /// restarted empty, or the lease ran out and nobody took the room yet) does not stop them:
    /// taking it again is the renewal's part, which a stuck server does not do.
    static func fenced(lease: String, holder: String, _ commands: [[[UInt8]]]) -> [[UInt8]] {
        var arguments = words(holder)
        for command in commands { arguments += [Array(String(command.count).utf8)] + command }
        return eval(fencedScript, keys: [lease], arguments: arguments)
    }

    /// ARGV: holder, then each command as its word count and its words. Another's lease with
    /// no expiry is given one (`LeasePolicy.repairLua`).
    static let fencedScript = """
        local holder = redis.call('GET', KEYS[1])
        if holder and holder ~= ARGV[1] then
          \(LeasePolicy.repairLua)
          return redis.error_reply('FENCED the lease is held by ' .. string.sub(holder, 1, 40))
        end
        local reply = false
        local i = 2
        while i <= #ARGV do
          local n = tonumber(ARGV[i])
          reply = redis.call(unpack(ARGV, i + 1, i + n))
          i = i + n + 1
        end
        return {1, reply}
        """
}

/// What a `RedisCommand.fenced` reply says.
enum Fenced: Equatable, Sendable {
    /// Run; the last command's reply.
    case ran(RedisReply)
    /// Not run: another server holds the lease.
    case refused(String)

    init?(_ reply: RedisReply) {
        switch reply {
        case .error(let message) where message.hasPrefix("FENCED"):
            self = .refused(message)
        case .array(let parts) where (1...2).contains(parts.count) && parts[0] == .integer(1):
            // A last reply of nil (LPOP of an empty list) may end the array early.
            self = .ran(parts.count == 2 ? parts[1] : .null)
        default:
            return nil
        }
    }
}

extension RedisCommands {
    /// `commands` fenced by `lease` (`RedisCommand.fenced`): `refused` when another server
    /// holds it; otherwise `done` with the last command's reply, or nil when the batch did not
    /// reach Redis (or its reply was not a fenced one).
    func submitFenced(lease: String, holder: String, _ commands: [[[UInt8]]], replacing: String? = nil,
                      refused: @escaping @Sendable () -> Void, done: (@Sendable (RedisReply?) -> Void)? = nil) {
        submit(.init([RedisCommand.fenced(lease: lease, holder: holder, commands)], replacing: replacing) { result in
            guard case .success(let replies) = result, let fenced = replies.first.flatMap(Fenced.init) else {
                done?(nil)
                return
            }
            switch fenced {
            case .refused: refused()
            case .ran(let reply): done?(reply)
            }
        })
    }
}
