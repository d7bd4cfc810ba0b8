import Synchronization

/// Whether this server reaches Redis: its command connection and its subscription each say
/// when they are lost or made again, and the cluster is linked while both are up. A stall of
/// Redis can cost the command connection (its reads time out) and not the subscription (its
/// pings allow 3 s): linked again follows whichever comes back last, not the subscription
/// alone.
final class ClusterLinks: Sendable {
    private let state = Mutex((commands: true, subscriber: true, linked: true))

    /// Records a change; returns whether the cluster is linked when that changed (nil: it did not).
    func set(commands: Bool? = nil, subscriber: Bool? = nil) -> Bool? {
        state.withLock { state in
            if let commands { state.commands = commands }
            if let subscriber { state.subscriber = subscriber }
            let linked = state.commands && state.subscriber
            guard linked != state.linked else { return nil }
            state.linked = linked
            return linked
        }
    }
}
