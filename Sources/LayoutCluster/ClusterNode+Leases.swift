import Dispatch
import LayoutCore
import LayoutRooms

/// The leases held and watched (`LeaseBook`): renewals, and the scripts that take, keep and give
/// them back in one step.
extension ClusterNode {
    /// Every 0.25 s until the node stops: what the lease book says is due.
    func scheduleLeaseTick() {
        queue.asyncAfter(deadline: .now() + 0.25) { [self] in
            guard !state.withLock({ $0.stopped }) else { return }
            leaseTick()
            scheduleLeaseTick()
        }
    }

    func leaseTick() {
        let serving = isServing
        let (due, fellSilent) = state.withLock { state in
            defer { state.silent = !serving }
            return (state.leases.due(now: Uptime.seconds(), serving: serving),
                    !serving && !state.silent && !state.leases.held.isEmpty)
        }
        if fellSilent {
            logger.error("the service thread has not come round for \(LeasePolicy.silence) s: its leases are not renewed, so other servers take its rooms")
        }
        for action in due {
            switch action {
            case .renew(let room): renew(room)
            case .tryTakeover(let room): tryTakeover(room)
            }
        }
    }

    func renew(_ room: RoomName) {
        let keys = ClusterKeys(room)
        heartbeat.submit(.init([RedisCommand.eval(Self.renewScript, keys: [keys.lease],
                                              arguments: RedisCommand.words(name, String(LeasePolicy.milliseconds)))]) { [self] result in
            guard case .success(let replies) = result else { return }  // tried again next time
            let reply: RoomClaim.RenewReply = switch replies.first {
            case .integer(1)?: .renewed
            case .integer(2)?: .retaken
            default: .heldElsewhere
            }
            if reply != .heldElsewhere { state.withLock { $0.leases.renewed(room, now: Uptime.seconds()) } }
            // Renewed: requests whose nudge was lost are taken at least once a second.
            guard let box = claimBox(room) else { return }
            advance(box, room) { claim, _ in claim.renewReplied(reply) }
        })
    }

    /// Redis names another server as the holder of a room stepped here (a renewal, or a fenced
    /// batch, found it): the room stops here. Said once, however many answers tell it.
    func leaseLost(_ room: RoomName) {
        guard let box = claimBox(room) else { return }
        advance(box, room) { claim, _ in claim.leaseLost() }
    }

    /// 1: renewed; 2: the lease was gone (Redis restarted empty) and is ours again; 0: another
    /// server holds it (given an expiry if it had none: `LeasePolicy.repairLua`).
    static let renewScript = """
        local holder = redis.call('GET', KEYS[1])
        if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
        if not holder then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 2 end
        \(LeasePolicy.repairLua)
        return 0
        """

    /// 1: the lease is ours; 0: it is held, or Redis has no state of the room to go on from;
    /// 2: as 0, and the lease had no expiry (set by hand): it was given the lease period, so it
    /// runs out unless its holder renews it (`LeasePolicy.repairLua`).
    static let takeoverScript = """
        \(LeasePolicy.repairLua)
        if redis.call('EXISTS', KEYS[2]) == 1 and redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
        if repaired then return 2 end
        return 0
        """

    static let releaseScriptText = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end
        """

    static func releaseScript(_ keys: ClusterKeys, node: String) -> [[UInt8]] {
        RedisCommand.eval(releaseScriptText, keys: [keys.lease], arguments: RedisCommand.words(node))
    }
}
