/// How this server comes to step a room of the cluster or relay it, keeps its lease and gives it
/// back: one room's claim as a value. Its inputs are what Redis replied, a timer that fired,
/// the room leaving; each returns the actions `ClusterNode` carries out (`ClusterNode+Claims`,
/// `ClusterNode+Leases`). It touches no Redis and no clock, so `RoomClaimTests` walks every
/// path, the races included (a lease taken by another server during a claim, two servers
/// claiming one room, an owner that vanishes).
///
///     placing ──asked──▶ relaying(fallback) ──2 s, not live──▶ claiming ──taken──▶ owning
///        │ owned elsewhere ▲      ▲ held elsewhere ◀───────────────┘  ▲            │ lost, left
///        └─ no reply, nobody listening ──────────────────────────────┘            ▼
///                                relaying ──owner silent, taken over──▶ owning   ended
package struct RoomClaim: Equatable, Sendable {
    package enum Phase: Equatable, Sendable {
        /// `target` was asked to adopt the new room; its lease is read meanwhile.
        case placing(target: String)
        /// Taking its lease here (SET NX); `relayed`: the owner relayed meanwhile (a fallback
        /// from a placement), whose relay stands if another server holds the lease.
        case claiming(relayed: String?)
        /// Relayed from `owner` ("": not a server's name); `fallback`: `owner` was asked to
        /// adopt the room, and this server claims it if that has not shown in 2 s.
        case relaying(owner: String, fallback: Bool)
        /// The lease is held here.
        case owning
        /// The room left this server, or its lease went to another.
        case ended
    }

    package enum Action: Equatable, Sendable {
        /// Read the lease and publish `NodeMessage.adopt` to `target`, in one batch.
        case askToAdopt(target: String)
        /// SET NX the lease, read it back and the room's state and roster (`Claim.reads`).
        case takeLease
        /// Redis did not answer: `takeLease` again after this many seconds (`retryDue`).
        case takeLeaseAgain(after: Double)
        /// Mirror the room from `owner`.
        case relay(owner: String)
        /// The guess that the room was placed on a server no longer stands (`ClusterView`).
        case unplace
        /// Call `fallbackDue` after this many seconds.
        case armFallback(after: Double)
        /// The lease is ours: step the room (`ClusterNotice.won`), going on from `previous`'s.
        case won(previous: String?)
        /// Release the lease (the script that deletes it only if it is ours).
        case giveLeaseBack
        /// The lease was renewed: take the requests whose nudge may have been lost.
        case takeRequests
        /// The lease had run out and the renewal took it again: write the room anew.
        case republish
        /// Another server holds the lease: the room stops here.
        case stop
    }

    static let fallbackSeconds = 2.0
    static let retrySeconds = 0.5

    package private(set) var phase: Phase

    /// A client here asked for a room no owner is known for; `target` is where the cluster's
    /// view places it (`ClusterView.placement`): this server takes it, or asks `target` to.
    package static func start(here: String, placedOn target: String) -> (RoomClaim, [Action]) {
        target == here ? adopted() : (RoomClaim(phase: .placing(target: target)), [.askToAdopt(target: target)])
    }

    /// The room is taken here (another server placed it here, or this one is the placement).
    package static func adopted() -> (RoomClaim, [Action]) {
        (RoomClaim(phase: .claiming(relayed: nil)), [.takeLease])
    }

    /// A room relayed from `owner` with no claim of its own here (what a takeover starts from).
    package static func relayed(from owner: String) -> RoomClaim {
        RoomClaim(phase: .relaying(owner: owner, fallback: false))
    }

    /// What the placement's batch said: no reply (Redis away), an owner already, nobody
    /// listening on `target`'s channel (it is gone), or `target` was asked.
    package enum AdoptionReply: Equatable, Sendable {
        case failed
        case ownedBy(String)
        case nobodyListening
        case asked
    }

    /// `gone`: the room left this server meanwhile.
    package mutating func adoptionReplied(_ reply: AdoptionReply, gone: Bool) -> [Action] {
        guard case .placing(let target) = phase else { return [] }
        switch reply {
        case .failed, .nobodyListening:
            phase = .claiming(relayed: nil)
            return [.takeLease]
        case .ownedBy(let owner):
            // It had an owner after all (the adopt message is ignored there).
            guard !gone else { return end([.unplace]) }
            phase = .relaying(owner: owner, fallback: false)
            return [.unplace, .relay(owner: owner)]
        case .asked:
            guard !gone else { return end([]) }
            phase = .relaying(owner: target, fallback: true)
            return [.relay(owner: target), .armFallback(after: Self.fallbackSeconds)]
        }
    }

    /// Two seconds after asking another server to adopt the room: if its relay is not live
    /// (`mirrorLive`, nil: no relay), that server did not take it, and this one does.
    package mutating func fallbackDue(mirrorLive: Bool?, gone: Bool) -> [Action] {
        guard case .relaying(let owner, fallback: true) = phase else { return [] }
        phase = .relaying(owner: owner, fallback: false)
        guard mirrorLive == false, !gone else { return [] }
        phase = .claiming(relayed: owner)
        return [.takeLease]
    }

    /// What `takeLease` found: no reply, the lease ours (set, or already ours), or held by
    /// another (its holder as Redis said).
    package enum LeaseReply: Equatable, Sendable {
        case failed
        case taken
        case heldBy(String?)
    }

    package mutating func leaseReplied(_ reply: LeaseReply, gone: Bool) -> [Action] {
        guard case .claiming(let relayed) = phase else { return [] }
        switch reply {
        case .failed:
            // Redis is away: again shortly (the joiners wait, up to their deadline).
            return gone ? end([]) : [.takeLeaseAgain(after: Self.retrySeconds)]
        case .taken:
            phase = .owning
            return [.won(previous: nil)]
        case .heldBy(let holder):
            if gone { return end([]) }
            if let relayed {
                // The server asked took it after all, or another raced: the relay stands.
                phase = .relaying(owner: relayed, fallback: false)
                return []
            }
            phase = .relaying(owner: holder ?? "", fallback: false)
            return [.unplace, .relay(owner: holder ?? "")]
        }
    }

    /// The wait after a claim Redis did not answer is over.
    package mutating func retryDue(gone: Bool) -> [Action] {
        guard case .claiming = phase else { return [] }
        return gone ? end([]) : [.takeLease]
    }

    /// The takeover script (tried while the room is relayed, when the lease book says) took the
    /// lease, or not; `relayedFrom`: the owner of the relay now (nil: the room is not relayed
    /// here any more, so the lease goes back).
    package mutating func takeoverReplied(took: Bool, relayedFrom: String?) -> [Action] {
        guard took else { return [] }
        switch phase {
        case .relaying, .claiming(relayed: _?):
            break  // a fallback's own claim still out finds the lease ours, and is ignored
        case .placing, .claiming(relayed: nil), .owning, .ended:
            return [.giveLeaseBack]
        }
        guard let owner = relayedFrom else { return end([.giveLeaseBack]) }
        phase = .owning
        return [.won(previous: owner.isEmpty ? nil : owner)]
    }

    /// What a renewal of the lease found: renewed, gone from Redis and taken again, or held by
    /// another server.
    package enum RenewReply: Equatable, Sendable {
        case renewed
        case retaken
        case heldElsewhere
    }

    package mutating func renewReplied(_ reply: RenewReply) -> [Action] {
        guard phase == .owning else { return [] }
        switch reply {
        case .renewed: return [.takeRequests]
        case .retaken: return [.republish]
        case .heldElsewhere: return end([.stop])
        }
    }

    /// A batch fenced by the lease was refused: another server holds it. Said once.
    package mutating func leaseLost() -> [Action] {
        phase == .owning ? end([.stop]) : []
    }

    /// The room leaves this server: a lease held here goes back.
    package mutating func leave() -> [Action] {
        end(phase == .owning ? [.giveLeaseBack] : [])
    }

    private mutating func end(_ actions: [Action]) -> [Action] {
        phase = .ended
        return actions
    }
}
