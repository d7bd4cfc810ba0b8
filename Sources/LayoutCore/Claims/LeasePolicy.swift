/// The lease numbers: an owner renews every second a lease that lasts three, so two renewals
/// may fail (a slow Redis, a long pause) before another server may take the room; servers
/// relaying the room try to take it every half second, so a dead owner's room goes on
/// elsewhere 3 to 3.5 s after its last renewal, plus the time to load its state.
///
/// Renewals have a connection of their own (`ClusterNode.heartbeat`), so a backlog of frames
/// and requests never delays them; instead they stop when the service thread has not come
/// round for `silence` (it wakes at least every second): a server that is stuck, not merely
/// busy, gives its rooms up.
package enum LeasePolicy {
    package static let milliseconds = 3000
    package static let renewEvery = 1.0
    package static let takeoverEvery = 0.5
    package static let silence = 2.0

    /// Lua, at the start of every script that reads a lease (`KEYS[1]`): a lease that would
    /// not run out as every server's does (no expiry: set by hand, or PERSISTed; or longer than
    /// the lease period) gets the lease period from now, and `repaired` is true. Unless its
    /// holder renews it, it then runs out and a server relaying the room takes it: a lease set
    /// by hand costs a room a failover, never its life.
    package static let repairLua = """
        local repaired = false
        local ttl = redis.call('PTTL', KEYS[1])
        if ttl == -1 or ttl > \(milliseconds) then
          redis.call('PEXPIRE', KEYS[1], \(milliseconds))
          repaired = true
        end
        """
}
