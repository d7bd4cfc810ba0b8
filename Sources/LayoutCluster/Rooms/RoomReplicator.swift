import Dispatch
import EventBus
import LayoutCore
import LayoutRooms
import Synchronization

/// The owner's side of a room in the cluster: everything its own clients get (events, frames,
/// status, `data` answers) goes to Redis once, for every relay, in the same order; what a
/// joiner on another server needs is kept there too (`ClusterKeys.mirror`, `events`). Called
/// on whichever thread publishes (the room's stepping thread, the service thread for
/// `joined`/`left`); the batches keep that order on the way to Redis (`RedisCommands`).
package final class RoomReplicator: RoomOwnerLink {
    let keys: ClusterKeys
    private let node: String
    private let redis: RedisCommands
    /// Redis refused a batch: another server holds the room's lease (every batch is fenced by
    /// it, `RedisCommand.fenced`), nothing was written, and the room stops here.
    private let leaseLost: @Sendable () -> Void
    private struct State {
        /// The membership version relays last got the parts of (-1: none yet).
        var sentMembership = -1
        var lastFrameCopy: UInt64 = 0
        /// The relays' clients of the room: client → its server, and whether it reads text.
        var remote: [String: RosterEntry] = [:]
        var subscription: Subscription<LayoutEvent>?
        var bus: EventBus<LayoutEvent>?
        var detached = false
    }
    private let state = Mutex(State())

    /// How often the copy of the newest frame in Redis is refreshed while the room moves.
    static let frameCopyInterval: UInt64 = 750_000_000

    init(room: RoomName, node: String, redis: RedisCommands, leaseLost: @escaping @Sendable () -> Void) {
        keys = ClusterKeys(room)
        self.node = node
        self.redis = redis
        self.leaseLost = leaseLost
    }

    /// Every event of `room` from now on goes to Redis as it is published.
    package func attach(to room: Room) {
        let (subscription, _) = room.bus.subscribe { [self] envelope in event(envelope) }
        state.withLock { state in
            state.subscription = subscription
            state.bus = room.bus
        }
    }

    /// The room leaves this server (unloaded, or its lease lost).
    func detach() {
        state.withLock { state in
            state.subscription?.cancel()
            state.subscription = nil
            state.bus = nil
            state.detached = true
        }
    }

    package var remoteClients: Int { state.withLock { $0.remote.count } }

    package var remoteTextReaders: Int { state.withLock { $0.remote.values.count(where: \.readsText) } }

    /// The room's clients on other servers as Redis lists them (`ClusterKeys.clients`), taken
    /// over with the room: those of `gone` (the previous owner, dead) are dropped and returned,
    /// this server's own are counted here as local ones.
    func adopt(roster: [String: RosterEntry], node: String, gone: String?) -> [String] {
        let dropped = roster.filter { $0.value.node == gone }.map(\.key).sorted()
        state.withLock { state in
            state.remote = roster.filter { $0.value.node != node && $0.value.node != gone }
        }
        if !dropped.isEmpty { redis.submit(.init([RedisCommand.words("HDEL", keys.clients) + dropped.map { Array($0.utf8) }])) }
        return dropped
    }

    /// A client joined or left the room, on server `node` (this one or a relay); false for a
    /// relay's client when that changes nothing (a repeat). `readsText`: a v1 client, whose
    /// server needs frames' text form (the roster keeps it for a server taking the room over).
    func joined(_ client: String, on node: String, local: Bool, readsText: Bool) -> Bool {
        let entry = RosterEntry(node: node, readsText: readsText)
        let new = local || state.withLock { $0.remote.updateValue(entry, forKey: client) == nil }
        if new { redis.submit(.init([RedisCommand.words("HSET", keys.clients, client, entry.encoded)])) }
        return new
    }

    func left(_ client: String, local: Bool) -> Bool {
        let gone = local || state.withLock { $0.remote.removeValue(forKey: client) != nil }
        if gone { redis.submit(.init([RedisCommand.words("HDEL", keys.clients, client)])) }
        return gone
    }

    /// Redis lost what it held of the room (it restarted empty): the next frame carries its
    /// membership and is copied again.
    func forgetSent() {
        state.withLock { state in
            state.sentMembership = -1
            state.lastFrameCopy = 0
        }
    }

    private func event(_ envelope: Envelope<LayoutEvent>) {
        let event = ReplicatedEvent(envelope)
        var list = WireWriter(capacity: 64 + event.encodedTail.count)
        event.write(into: &list)
        // The list in Redis keeps what the room's replay keeps (the bus's bounds, in events
        // and bytes): the events up to this one that its replay buffer holds now.
        let kept = state.withLock { $0.bus?.replayCount } ?? 0
        submitFenced([
            RedisCommand.words("RPUSH", keys.events) + [list.bytes],
            kept > 0 ? RedisCommand.words("LTRIM", keys.events, String(-kept), "-1") : RedisCommand.words("LTRIM", keys.events, "1", "0"),
            RedisCommand.words("PUBLISH", keys.broadcast) + [RoomBroadcast.events([event]).encoded],
        ])
    }

    /// `commands` in one step, unless another server holds the lease (then `leaseLost`). A
    /// batch that carries what later frames rely on (`resendIfLost`) and did not arrive makes
    /// the next frame carry it again. Nothing goes once the room left this server.
    private func submitFenced(_ commands: [[[UInt8]]], replacing: String? = nil, resendIfLost: Bool = false) {
        guard !state.withLock({ $0.detached }) else { return }
        redis.submitFenced(lease: keys.lease, holder: node, commands, replacing: replacing, refused: leaseLost) { [self] reply in
            if reply == nil, resendIfLost { forgetSent() }
        }
    }

    /// What the room published: to Redis, for every relay (its events come by the bus).
    package func published(_ publication: RoomPublication, by room: Room) {
        switch publication {
        case .frame(let frame, let textHead, let textMembership, let binaryMembership, let nextDueIn):
            // The text form only if it was written for a v1 client somewhere (`Room.wantsText`):
            // otherwise Redis carries the binary form alone.
            let text = frame.text.isWritten ? frame.withoutIDs?.bytes ?? [] : []
            let replicated = ReplicatedFrame(serial: frame.serial, version: frame.version, nextDueIn: nextDueIn,
                                             text: text, textHead: text.isEmpty ? 0 : textHead,
                                             binary: frame.binaryWithoutIDs.bytes, membership: nil)
            published(replicated, membership: .init(version: frame.version, text: textMembership, binary: binaryMembership),
                      status: ReplicatedStatus(layout: room.reportedStatus, clients: room.clients))
        case .status:
            statusChanged(ReplicatedStatus(layout: room.reportedStatus, clients: room.clients))
        case .dataAnswer(let message, let everyone):
            room.bus.withPublishingHeld { through in answerData(through: through, message: message, everyone: everyone) }
        case .sendAgain:
            forgetSent()
        case .pointers(let sent, let all):
            // The set is kept for a relay's joiners, as the room's frame and status are.
            let broadcast = sent.map { RoomBroadcast.pointers($0, whole: false) } ?? .pointers(all, whole: true)
            submitFenced([
                RedisCommand.words("PUBLISH", keys.broadcast) + [broadcast.encoded],
                RedisCommand.words("HSET", keys.mirror, "pointers") + [RoomBroadcast.pointers(all, whole: true).encoded],
            ])
        case .access(let access):
            // Relays judge their handshakes and connections by it, and a joiner's relay reads it
            // with the room's copy; before the `access` event, which the bus publishes next.
            submitFenced([
                RedisCommand.words("PUBLISH", keys.broadcast) + [RoomBroadcast.access(access).encoded],
                RedisCommand.words("HSET", keys.mirror, "access") + [access.encoded],
            ])
        }
    }

    /// A frame was published: relays get it (with the membership parts when its version is new
    /// to them), and the status. The copy in Redis is refreshed with every change of membership,
    /// every 0.75 s while the room moves, and with the last frame before it stops.
    private func published(_ frame: ReplicatedFrame, membership: ReplicatedFrame.Membership, status: ReplicatedStatus) {
        let now = DispatchTime.now().uptimeNanoseconds
        let (newMembership, copyDue) = state.withLock { state -> (Bool, Bool) in
            let new = state.sentMembership != frame.version
            state.sentMembership = frame.version
            // A joiner's first frame must hold every cell the events before it added: the copy
            // follows each change of membership at once, and positions every 0.75 s.
            let due = new || frame.nextDueIn == 0 || now >= state.lastFrameCopy + Self.frameCopyInterval
            if due { state.lastFrameCopy = now }
            return (new, due)
        }
        let live = frame.with(membership: newMembership ? membership : nil)
        submitStamped(status) { status in
            self.submitFrame(live: live, copy: copyDue ? frame.with(membership: membership) : nil, status: status)
        }
    }

    /// `status` with this server's name and the room's last event, handed to `submit` while
    /// no event can be published: every event it counts is queued before it.
    private func submitStamped(_ status: ReplicatedStatus, _ submit: (ReplicatedStatus) -> Void) {
        var status = status
        status.owner = node
        guard let bus = state.withLock({ $0.bus }) else { return }
        bus.withPublishingHeld { last in
            status.lastSeq = last
            submit(status)
        }
    }

    /// `live` to the relays (with its membership, when new), and into the room's copy for
    /// joiners: the status, the new membership, and `copy` when due.
    private func submitFrame(live: ReplicatedFrame, copy: ReplicatedFrame?, status: ReplicatedStatus) {
        var fields: [[UInt8]] = [Array("status".utf8), status.encoded]
        if let membership = live.membership { fields += [Array("membership".utf8), membership.encoded] }
        if let copy { fields += [Array("frame".utf8), RoomBroadcast.frame(copy, status).encoded] }
        let commands: [[[UInt8]]] = [
            RedisCommand.words("PUBLISH", keys.broadcast) + [RoomBroadcast.frame(live, status).encoded],
            RedisCommand.words("HSET", keys.mirror) + fields,
        ]
        // A frame that carries a membership or the copy is never replaced by a newer one; if
        // it does not reach Redis, the next frame carries them again.
        guard live.membership != nil || copy != nil else { return submitFenced(commands, replacing: "frame \(keys.room)") }
        submitFenced(commands, resendIfLost: true)
    }

    /// The status changed without a frame (a parameter of a paused room, a client came or went).
    private func statusChanged(_ status: ReplicatedStatus) {
        submitStamped(status) { status in
            submitFenced([
                RedisCommand.words("PUBLISH", keys.broadcast) + [RoomBroadcast.status(status).encoded],
                RedisCommand.words("HSET", keys.mirror, "status") + [status.encoded],
            ])
        }
    }

    /// The answer to relays' joiners waiting for the room's `data` message: it holds the room as
    /// of event `through`.
    func answerData(through: UInt64, message: [UInt8]?, everyone: Bool) {
        let broadcast = RoomBroadcast.data(through: through, message: message, everyone: everyone)
        submitFenced([RedisCommand.words("PUBLISH", keys.broadcast) + [broadcast.encoded]])
    }
}
