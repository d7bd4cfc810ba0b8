import LayoutCore

/// The leases this server holds or watches, and when each is next acted on: pure, the clock
/// passed in, every transition a value (`ClusterNode` carries the actions out).
///
/// A held lease is renewed every `LeasePolicy.renewEvery`; a relayed room's lease is watched:
/// every `LeasePolicy.takeoverEvery` this server tries to take it, which succeeds only once
/// the owner stopped renewing it (it died, or lost Redis) and its lease expired.
struct LeaseBook: Equatable, Sendable {
    enum Lease: Equatable, Sendable {
        case held(renewAt: Double)
        case watched(tryAt: Double)
    }

    enum Action: Equatable, Sendable {
        case renew(RoomName)
        case tryTakeover(RoomName)
    }

    private(set) var leases: [RoomName: Lease] = [:]

    /// This server took the lease of `room` at `now`.
    mutating func acquired(_ room: RoomName, now: Double) {
        leases[room] = .held(renewAt: now + LeasePolicy.renewEvery)
    }

    /// Another server holds it; this one relays the room and stands by.
    mutating func watching(_ room: RoomName, now: Double) {
        leases[room] = .watched(tryAt: now + LeasePolicy.takeoverEvery)
    }

    mutating func renewed(_ room: RoomName, now: Double) {
        guard case .held = leases[room] else { return }
        leases[room] = .held(renewAt: now + LeasePolicy.renewEvery)
    }

    /// Given back, lost, or the room left this server.
    mutating func released(_ room: RoomName) {
        leases[room] = nil
    }

    /// What to do now; an action is not due again until its period passed (whether or not
    /// Redis answered). While the server is `serving` no more (its service thread has not come
    /// round for `LeasePolicy.silence`), held leases are not renewed, so a stuck server's rooms
    /// go on elsewhere; renewals are due at once when it comes back in time.
    mutating func due(now: Double, serving: Bool = true) -> [Action] {
        var actions: [Action] = []
        for (room, lease) in leases.sorted(by: { $0.key < $1.key }) {
            switch lease {
            case .held(let renewAt) where renewAt <= now && serving:
                actions.append(.renew(room))
                leases[room] = .held(renewAt: now + LeasePolicy.renewEvery)
            case .watched(let tryAt) where tryAt <= now:
                actions.append(.tryTakeover(room))
                leases[room] = .watched(tryAt: now + LeasePolicy.takeoverEvery)
            default:
                break
            }
        }
        return actions
    }

    var held: Set<RoomName> {
        Set(leases.compactMap { room, lease in if case .held = lease { room } else { nil } })
    }
}
