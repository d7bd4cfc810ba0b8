/// Fencing a room's lease holder (`ClusterNode`, `RoomReplicator`): what relays read of a room
/// comes only from the server Redis names as its holder.
extension RedisCommand {
    /// `commands`, run in one step only while `lease` names `holder`: a server that lost a
    /// room's lease (it was stuck, or cut off) cannot publish or take anything of the room
    /// once another server holds it (`Fenced`). A lease nobody holds (it ran out, or Redis
    /// restarted empty) is taken again for `milliseconds` first.
    static func fenced(lease: String, holder: String, milliseconds: Int, _ commands: [[[UInt8]]]) -> [[UInt8]] {
        var arguments = words(holder, String(milliseconds))
        for command in commands { arguments += [Array(String(command.count).utf8)] + command }
        return eval(fencedScript, keys: [lease], arguments: arguments)
    }

    /// ARGV: holder, milliseconds, then each command as its word count and its words.
    static let fencedScript = """
        local holder = redis.call('GET', KEYS[1])
        local taken = 1
        if not holder then
          redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
          taken = 2
        elseif holder ~= ARGV[1] then
          return redis.error_reply('FENCED the lease is held by ' .. holder)
        end
        local reply = false
        local i = 3
        while i <= #ARGV do
          local n = tonumber(ARGV[i])
          reply = redis.call(unpack(ARGV, i + 1, i + n))
          i = i + n + 1
        end
        return {taken, reply}
        """
}

/// What a `RedisCommand.fenced` reply says.
enum Fenced: Equatable, Sendable {
    /// Run under the lease; the last command's reply.
    case ran(RedisReply)
    /// Run after taking the lease again (it had run out, or Redis restarted empty).
    case retook(RedisReply)
    /// Not run: another server holds the lease.
    case refused(String)

    init?(_ reply: RedisReply) {
        switch reply {
        case .error(let message) where message.hasPrefix("FENCED"):
            self = .refused(message)
        case .array(let parts) where (1...2).contains(parts.count) && (parts[0] == .integer(1) || parts[0] == .integer(2)):
            // A last reply of nil (LPOP of an empty list) may end the array early.
            let last = parts.count == 2 ? parts[1] : .null
            self = parts[0] == .integer(1) ? .ran(last) : .retook(last)
        default:
            return nil
        }
    }
}
