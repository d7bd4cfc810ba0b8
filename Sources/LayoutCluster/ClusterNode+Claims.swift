import Dispatch
import LayoutCore
import LayoutRooms

/// Where a room a client asks for is stepped: claimed here, placed on the server stepping the
/// fewest rooms, or taken over from an owner that stopped renewing its lease. What to do at
/// each answer is `RoomClaim`'s; here it is carried out.
extension ClusterNode {
    /// A client here wants `room`, which has no owner known here. A room with an owner is
    /// relayed; a new one goes to the server stepping the fewest rooms (`ClusterView.placement`):
    /// this one takes its lease, another is asked to (`NodeMessage.adopt`) and relayed, and if
    /// that server has not taken it within 2 s, this one does.
    package func claim(_ room: Room) {
        let target = viewBox.withLock { box in
            let target = box.view.placement(for: name)
            box.view.assume(room.name, at: target)
            box.placed.append((room.name, target, Uptime.seconds() + 5))
            return target
        }
        let (claim, actions) = RoomClaim.start(here: name, placedOn: target)
        begin(claim, actions, for: room)
    }

    /// Takes the lease of `room` if it is free, else relays its owner (a room placed here).
    func claimHere(_ room: Room) {
        let (claim, actions) = RoomClaim.adopted()
        begin(claim, actions, for: room)
    }

    private func begin(_ claim: RoomClaim, _ actions: [RoomClaim.Action], for room: Room) {
        let box = ClaimBox(claim, for: room)
        state.withLock { $0.claims[room.name] = box }
        perform(actions, of: box, room.name)
    }

    /// Feeds `input` to `box`'s claim and carries out what it returns; `read`: the room's state
    /// and roster, read with the lease (what `won` steps the room from).
    func advance(_ box: ClaimBox, _ name: RoomName, read: Claim? = nil,
                         _ input: (inout RoomClaim, _ gone: Bool) -> [RoomClaim.Action]) {
        let gone = box.room?.isGone.load(ordering: .acquiring) ?? false
        let actions = box.advance { input(&$0, gone) }
        if box.phase == .ended { state.withLock { if $0.claims[name] === box { $0.claims[name] = nil } } }
        perform(actions, of: box, name, read: read)
    }

    /// The claim of `name` (the last begun), if it has not ended.
    func claimBox(_ name: RoomName) -> ClaimBox? { state.withLock { $0.claims[name] } }

    private func perform(_ actions: [RoomClaim.Action], of box: ClaimBox, _ name: RoomName, read: Claim? = nil) {
        for action in actions {
            switch action {
            case .askToAdopt(let target): askToAdopt(box, name, target: target)
            case .takeLease: takeLease(box, name)
            case .takeLeaseAgain(let seconds):
                queue.asyncAfter(deadline: .now() + seconds) { [self] in advance(box, name) { $0.retryDue(gone: $1) } }
            case .relay(let owner): if let room = box.room { relay(room, owner: owner) }
            case .unplace: unplace(name)
            case .armFallback(let seconds):
                queue.asyncAfter(deadline: .now() + seconds) { [self] in fallBack(box, name) }
            case .won(let previous):
                if let read { won(name, Claim(saved: read.saved, previous: previous, roster: read.roster), room: box.room ?? relayedRoom(name)) }
            case .giveLeaseBack: redis.submit(.init([Self.releaseScript(ClusterKeys(name), node: self.name)]))
            case .takeRequests: if case .owner(let owned, _)? = state.withLock({ $0.routes[name] }) { takeRequests(of: owned) }
            case .republish:
                logger.warning("room \(name): its lease had run out (Redis restarted, or this server was stuck); taken again, its state written anew")
                notices.post(.reacquired(name))
            case .stop:
                state.withLock { $0.leases.released(name) }
                logger.error("room \(name): another server holds its lease (this one was cut off from Redis or stuck too long); the room stops here")
                notices.post(.lost(name))
            }
        }
    }

    /// Reads the lease and asks `target` to adopt the room, in one batch. A target whose
    /// summary is gone (it is draining, or stopped) counts as one nobody heard: this server
    /// takes the room at once rather than after the fallback's wait.
    private func askToAdopt(_ box: ClaimBox, _ name: RoomName, target: String) {
        let keys = ClusterKeys(name)
        redis.submit(.init([
            RedisCommand.words("GET", keys.lease),
            RedisCommand.words("EXISTS", ClusterKeys.nodeSummary(target)),
            RedisCommand.words("PUBLISH", ClusterKeys.node(target))
                + [NodeMessage.adopt(name, access: box.room?.proposedAccess.withLock { $0 }).encoded],
        ]) { [self] result in
            var reply = RoomClaim.AdoptionReply.failed
            if case .success(let replies) = result, replies.count == 3 {
                let heard = replies[1] != .integer(0) && replies[2] != .integer(0)
                reply = replies[0].text.map { .ownedBy($0) } ?? (heard ? .asked : .nobodyListening)
            }
            advance(box, name) { $0.adoptionReplied(reply, gone: $1) }
        })
    }

    /// Two seconds after another server was asked to adopt the room: if its relay is not live,
    /// that server did not take it, and this one does.
    private func fallBack(_ box: ClaimBox, _ name: RoomName) {
        guard case .relaying(let target, fallback: true) = box.phase else { return }
        advance(box, name) { claim, gone in
            let actions = claim.fallbackDue(mirrorLive: box.room?.mirror?.isLive, gone: gone)
            if !actions.isEmpty { logger.warning("room \(name): \(target) did not take it in 2 s; stepping it here") }
            return actions
        }
    }

    /// SET NX the lease, read it back with the room's state and roster.
    private func takeLease(_ box: ClaimBox, _ name: RoomName) {
        let keys = ClusterKeys(name)
        redis.submit(.init([
            RedisCommand.words("SET", keys.lease, self.name, "NX", "PX", String(LeasePolicy.milliseconds)),
            RedisCommand.words("GET", keys.lease),
        ] + Claim.reads(name)) { [self] result in
            guard case .success(let replies) = result, replies.count == 4 else {
                return advance(box, name) { $0.leaseReplied(.failed, gone: $1) }
            }
            let taken = replies[0].isOK || replies[1].text == self.name
            if taken { state.withLock { $0.leases.acquired(name, now: Uptime.seconds()) } }
            advance(box, name, read: Claim(replies[2...], previous: nil)) {
                $0.leaseReplied(taken ? .taken : .heldBy(replies[1].text), gone: $1)
            }
        })
    }

    /// The owner of a relayed room stopped renewing its lease: take it, if Redis holds the
    /// room's state (a Redis that restarted empty has none, and the owner, if alive, takes
    /// its lease again and writes it: see `renew`). `handedOff`: its owner, draining, gave it
    /// back (`handedOff(_:)`), rather than a try at the lease's period.
    func tryTakeover(_ room: RoomName, handedOff: Bool = false) {
        guard !state.withLock({ $0.draining }) else { return }
        let keys = ClusterKeys(room)
        redis.submit(.init([
            RedisCommand.eval(Self.takeoverScript, keys: [keys.lease, ClusterKeys.state(room)],
                              arguments: RedisCommand.words(name, String(LeasePolicy.milliseconds))),
        ] + Claim.reads(room)) { [self] result in
            guard case .success(let replies) = result, replies.count == 3 else { return }
            if replies[0] == .integer(2) {
                logger.warning("room \(room): its lease had no expiry, as no server sets one (it was set by hand); given \(LeasePolicy.milliseconds) ms, after which a server takes the room unless its holder renews it")
            }
            guard replies[0] == .integer(1) else { return }
            let relayedFrom = state.withLock { state -> String? in
                guard case .relay(let mirror)? = state.routes[room] else { return nil }
                state.leases.acquired(room, now: Uptime.seconds())
                return mirror.owner
            }
            if let relayedFrom {
                let owner = relayedFrom.isEmpty ? "its owner" : relayedFrom
                if handedOff {
                    logger.info("room \(room): \(owner) handed it off as it drains; stepping it here")
                } else {
                    logger.warning("room \(room): \(owner) stopped renewing its lease; stepping it here")
                }
            }
            // Not relayed here any more (the room left meanwhile): the claim gives the lease back.
            let box = state.withLock { state in
                if let box = state.claims[room] { return box }
                let box = ClaimBox(RoomClaim.relayed(from: relayedFrom ?? ""), for: nil)
                state.claims[room] = box
                return box
            }
            advance(box, room, read: Claim(replies[1...], previous: nil)) { claim, _ in
                claim.takeoverReplied(took: true, relayedFrom: relayedFrom)
            }
        })
    }

    /// The lease is ours: the room's state, read with it, is decoded off the service thread and
    /// Redis's threads (neither waits for a large room's state to be read and checked), and its
    /// history read from its stream into `target` (the room in memory here, if known), then
    /// the service thread steps the room (`ClusterNotice.won`).
    private func won(_ room: RoomName, _ claim: Claim, room target: Room?) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var claim = claim
            claim.state = claim.decoded(room)
            if let target { loadHistory(of: target, state: claim.state) }
            notices.post(.won(room, claim))
        }
    }
}

extension Claim {
    /// What a server that takes a room's lease reads of it in the same batch: its state, and
    /// its clients everywhere (`ClusterKeys.clients`).
    static func reads(_ room: RoomName) -> [[[UInt8]]] {
        [RedisCommand.words("GET", ClusterKeys.state(room)), RedisCommand.words("HGETALL", ClusterKeys(room).clients)]
    }

    /// From the replies to `reads`. The roster keeps only client ids on servers' names (at most
    /// `WireBounds.clients`): anything else in the hash was not written by a server.
    init(_ replies: ArraySlice<RedisReply>, previous: String?) {
        var roster: [String: RosterEntry] = [:]
        for (client, value) in replies[replies.startIndex + 1].fields where roster.count < WireBounds.clients.upperBound {
            guard let text = String(validating: value, as: UTF8.self), let entry = RosterEntry(text),
                  WireBounds.validClientID(client) else { continue }
            roster[client] = entry
        }
        self.init(saved: replies[replies.startIndex].bytes, previous: previous, roster: roster)
    }
}
