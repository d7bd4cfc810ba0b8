import Dispatch
import EventBus
import Foundation
import LayoutCore
import LayoutRooms
import Logging
import Synchronization

/// This server's part in the cluster: the Redis threads, which rooms it owns (their
/// replicators, their leases) and which it relays (their mirrors), and the messages between
/// servers. The service thread calls it for rooms coming and going and for its clients'
/// commands in relayed rooms; what the cluster's threads learn comes back as `ClusterNotice`s.
package final class ClusterNode: RoomCluster {
    package let name: String
    package let notices = ClusterNotices()
    /// Whether the command connection and the subscription reach Redis (`ClusterLinks`).
    let links = ClusterLinks()
    /// Frames, events, requests, state: everything but what shows this server alive.
    let redis: RedisCommands
    /// Lease renewals and this server's summary, on a connection of their own: however far
    /// behind `redis` falls, they are not queued behind it (`LeasePolicy`).
    let heartbeat: RedisCommands
    /// Rooms' histories (`RedisHistoryStream`, `RelayedHistory`), on a connection of their own:
    /// a checkpoint or a relay's read of a large room's history is megabytes, which must not
    /// hold back frames and events queued behind them.
    let historyRedis: RedisCommands
    /// Relayed rooms' histories, as read for this server's clients; answered on `historyQueue`.
    let relayedHistories = RelayedHistories()
    let historyQueue = DispatchQueue(label: "forcelayout.relayed-history", qos: .utility)
    /// When the service thread last came round (`serviceCameRound`), in uptime nanoseconds.
    let serviceRound = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
    let subscriber: Mutex<RedisSubscriber?> = Mutex(nil)
    private let address: RedisAddress
    private let limits: Limits
    let decoder: MessageDecoder
    let logger: Logger
    enum Route {
        case owner(Room, RoomReplicator)
        case relay(RoomMirror)
    }
    struct State {
        var routes: [RoomName: Route] = [:]
        /// Each room's claim (`RoomClaim`): the last begun for its name, until it ends.
        var claims: [RoomName: ClaimBox] = [:]
        var leases = LeaseBook()
        var stopped = false
        /// The service thread was last found silent (`isServing` false): said once a silence.
        var silent = false
        /// Draining (`beginDraining`): no room is taken over or adopted here any more.
        var draining = false
        /// Rooms being handed off: their requests are not taken any more (`handOff`).
        var handingOff: Set<RoomName> = []
    }
    let state = Mutex(State())
    /// The view, the rooms placed lately (counted on their servers until those servers' own
    /// summaries, up to 2 s old, include them), and why summaries were last refused (each
    /// reason is logged once while it lasts).
    let viewBox = Mutex((view: ClusterView(), placed: [(room: RoomName, node: String, until: Double)](), refused: Set<String>()))
    /// Wakes an owned room's turn (`StepPool.wake`).
    let wakeRoom = Mutex<(@Sendable (Room) -> Void)?>(nil)
    let queue = DispatchQueue(label: "forcelayout.cluster")

    package init(config: ClusterConfig, limits: Limits, logger: Logger) {
        name = config.node
        address = config.redis
        self.limits = limits
        decoder = MessageDecoder(limits: limits)
        self.logger = logger
        let notices = notices, links = links
        let redis = RedisCommands(address: config.redis, logger: logger) { up in
            if let linked = links.set(commands: up) { notices.post(.link(linked)) }
        }
        self.redis = redis
        // The heartbeat connects again first (a renewal every second): Redis answers, so the
        // commands, which carry what the renewal's outcome sets off (a room's state written
        // anew after a restart), connect again with their next batch, not after their backoff.
        heartbeat = RedisCommands(address: config.redis, purpose: "heartbeat", logger: logger) { up in
            if up { redis.reconnectNow() }
        }
        historyRedis = RedisCommands(address: config.redis, purpose: "history", logger: logger) { _ in }
    }

    /// The service thread is alive: called on each of its rounds.
    package func serviceCameRound() {
        serviceRound.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
    }

    /// Whether the service thread came round within `LeasePolicy.silence`.
    var isServing: Bool {
        let last = serviceRound.load(ordering: .relaxed)
        return Double(DispatchTime.now().uptimeNanoseconds &- last) / 1e9 < LeasePolicy.silence
    }

    /// Why this server cannot join (nil: it can): Redis does not answer at `address`, or
    /// another running server reports under the name `node` (a server killed a moment ago
    /// stops reporting within the lease period, so a restart waits up to 4 s for its name).
    static func check(_ address: RedisAddress, node: String) -> String? {
        do {
            let connection = try RedisConnection(address, timeout: 2)
            let reply = try connection.command(["PING"])
            if let error = reply.errorMessage {
                if error.hasPrefix("NOAUTH") {
                    return "Redis at \(address) asks for a password: give it in a file with --redis-password-file, or in \(RedisCredentials.passwordVariable)"
                }
                return "cannot reach Redis: \(address): \(error.prefix(200))"
            }
            let deadline = Uptime.seconds() + 4
            while true {
                let reply = try connection.command(["PTTL", ClusterKeys.nodeSummary(node)])
                if let error = reply.errorMessage {
                    return "Redis at \(address) refuses this server's commands (\(error.prefix(200))): its user needs the keys and channels fl:* and the commands docs/cluster.md lists"
                }
                // A summary with no expiry was written by hand, not by a running server (`ClusterView.reported`).
                guard case .integer(let ttl) = reply, (1...LeasePolicy.milliseconds).contains(ttl) else { return nil }
                guard Uptime.seconds() < deadline else {
                    return "another running server is named \(node) in this cluster: give this one another --node"
                }
                usleep(250_000)
            }
        } catch {
            return "cannot reach Redis: \(error.description)"
        }
    }

    package func start(waker: ServiceWaker, wake: @escaping @Sendable (Room) -> Void) {
        notices.attach(waker)
        wakeRoom.withLock { $0 = wake }
        let subscriber = RedisSubscriber(address: address, logger: logger, handlers: .init(
            received: { [self] channel, payload in received(channel, payload) },
            subscribed: { [self] channel in subscribed(channel) },
            linkChanged: { [self] up in linkChanged(up) }))
        self.subscriber.withLock { $0 = subscriber }
        subscriber.subscribe(ClusterKeys.node(name))
        subscriber.subscribe(ClusterKeys.handOffs)
        redis.start()
        heartbeat.start()
        historyRedis.start()
        subscriber.start()
        scheduleLeaseTick()
    }

    package func stop() {
        let owned = state.withLock { state in
            state.stopped = true
            return state.routes.compactMap { name, route -> RoomName? in
                if case .owner = route { return name } else { return nil }
            }
        }
        // Leases go back at once, so another server need not wait for them to expire.
        for room in owned { _ = redis.call([Self.releaseScript(ClusterKeys(room), node: name)]) }
        // The name is free again at once (a restart need not wait for it).
        _ = redis.call([RedisCommand.words("DEL", ClusterKeys.nodeSummary(name)),
                        RedisCommand.words("ZREM", ClusterKeys.nodes, name)])
        subscriber.withLock { $0 }?.stop()
        heartbeat.stop()
        historyRedis.stop()
        redis.stop()
    }

    // MARK: Rooms coming and going (service thread)

    /// Steps `room` here from now on (after `won`): its commands come from Redis too, those
    /// waiting there first, then `taken` runs. A room relayed until now stops listening to its
    /// old owner.
    func own(_ room: Room, replicator: RoomReplicator, taken: @escaping @Sendable () -> Void = {}) {
        let wasRelayed = state.withLock { state -> Bool in
            defer { state.routes[room.name] = .owner(room, replicator) }
            if case .relay? = state.routes[room.name] { return true }
            return false
        }
        relayedHistories.remove(room.name)
        let subscriber = subscriber.withLock { $0 }
        if wasRelayed { subscriber?.unsubscribe(replicator.keys.broadcast) }
        subscriber?.subscribe(replicator.keys.nudge)
        takeRequests(of: room, then: taken)
    }

    func replicator(for room: RoomName) -> RoomReplicator {
        RoomReplicator(room: room, node: name, redis: redis, leaseLost: { [self] in leaseLost(room) })
    }

    /// `owner`: the lease's holder as Redis said (anything but a server's name is unknown: "").
    func relay(_ room: Room, owner: String) {
        let owner = NodeName.isValid(owner) ? owner : ""
        let roomName = room.name
        let mirror = RoomMirror(room: room, owner: owner, link: .init(
            read: { [self] commands, completion in redis.submit(.init(commands, completion: completion)) },
            askForData: { [self] in send(.data(node: name), to: roomName) },
            live: { [self] in notices.post(.live(roomName)) },
            gap: { [self] in notices.post(.gap(roomName)) },
            refused: { [self] why in
                logger.error("room \(roomName): dropped what no server wrote on its channel or in its keys (\(why)); whoever can write to this Redis controls the cluster")
            }))
        room.relay(mirror)
        state.withLock { state in
            state.routes[room.name] = .relay(mirror)
            state.leases.watching(room.name, now: Uptime.seconds())
        }
        logger.info("room \(room.name): relayed from \(owner.isEmpty ? "an unknown server" : owner)")
        subscriber.withLock { $0 }?.subscribe(ClusterKeys(room.name).broadcast)
    }

    /// The room leaves this server (unloaded, forgotten, or lost to another owner): its lease
    /// goes back if this server still holds it, its channel is dropped.
    package func drop(_ room: RoomName) {
        let route = state.withLock { state -> Route? in
            state.leases.released(room)
            return state.routes.removeValue(forKey: room)
        }
        relayedHistories.remove(room)
        let keys = ClusterKeys(room)
        switch route {
        case .owner(_, let replicator):
            replicator.detach()
            subscriber.withLock { $0 }?.unsubscribe(keys.nudge)
        case .relay(let mirror):
            subscriber.withLock { $0 }?.unsubscribe(keys.broadcast)
            mirror.room.relay(nil)
        case nil:
            break
        }
        if let box = claimBox(room) { advance(box, room) { claim, _ in claim.leave() } }
    }

    /// The state of `room` in Redis, read, validated and handed to `deliver` (nil: none, or
    /// unusable), on the command thread.
    package func readState(of room: RoomName, deliver: @escaping @Sendable (SavedState?) -> Void) {
        redis.submit(.init([RedisCommand.words("GET", ClusterKeys.state(room))]) { result in
            guard case .success(let replies) = result, let bytes = replies.first?.bytes,
                  let saved = try? StateFile.decode(bytes, path: ClusterKeys.state(room)) else { return deliver(nil) }
            deliver(saved)
        })
    }

    // MARK: What arrives from Redis (cluster threads)

    func received(_ channel: String, _ payload: [UInt8]) {
        if channel == ClusterKeys.handOffs {
            return handedOff(payload)
        }
        if channel == ClusterKeys.node(name) {
            switch try? NodeMessage(decoding: payload) {
            case .reply(let client, let message)?: notices.post(.reply(client: client, message: message))
            case .adopt(let room, let access)?:
                // Draining: not taken; the server that asked steps it itself in 2 s.
                if !state.withLock({ $0.draining }) { notices.post(.adopt(room, access: access)) }
            case nil: break
            }
            return
        }
        guard let (room, isBroadcast) = ClusterKeys.room(ofChannel: channel),
              let route = state.withLock({ $0.routes[room] }) else { return }
        switch (route, isBroadcast) {
        case (.relay(let mirror), true): mirror.received(payload)
        case (.owner(let room, _), false): takeRequests(of: room)
        default: break
        }
    }

    /// A subscription (re)started: a relay catches up; an owner takes the requests that came
    /// while it was not listening.
    func subscribed(_ channel: String) {
        guard let (room, isBroadcast) = ClusterKeys.room(ofChannel: channel),
              let route = state.withLock({ $0.routes[room] }) else { return }
        switch (route, isBroadcast) {
        case (.relay(let mirror), true): mirror.subscribed()
        case (.owner(let room, _), false): takeRequests(of: room)
        default: break
        }
    }

    /// The subscription was lost or made again. Made again: Redis answers, so the command
    /// connection, if lost too, comes back with the relays' catch-up reads rather than after
    /// its backoff (`RoomMirror.subscribed`).
    func linkChanged(_ up: Bool) {
        if up {
            redis.reconnectNow()
            heartbeat.reconnectNow()
            historyRedis.reconnectNow()
        } else {
            let mirrors = state.withLock { $0.routes.values.compactMap { route -> RoomMirror? in
                if case .relay(let mirror) = route { return mirror } else { return nil }
            } }
            for mirror in mirrors { mirror.lost() }
        }
        if let linked = links.set(subscriber: up) { notices.post(.link(linked)) }
    }

}
