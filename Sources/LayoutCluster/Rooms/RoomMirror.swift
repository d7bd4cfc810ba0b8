import Dispatch
import LayoutCore
import LayoutRooms
import Synchronization

/// A relay's side of a room another server steps: fills the room's bus, frames and status from
/// what the owner broadcasts, so this server's connections get the same events (same sequence
/// numbers, same bytes) and the same frames as the owner's own.
///
/// Catching up: once the subscription to the room's channel starts, it reads what Redis keeps
/// of the room (`ClusterKeys.mirror`: status, membership, a recent frame, access, pointers;
/// `events`), then
/// applies what arrived meanwhile (an event or frame already in the read is dropped by its
/// sequence number or serial). It is live once it has a frame. Used on the subscriber thread
/// (broadcasts), the command thread (the read) and the service thread (joiners).
package final class RoomMirror: RoomRelayLink {
    /// What the mirror asks of the cluster (`ClusterNode`).
    struct Link: Sendable {
        /// Read `commands` in one round trip; the replies go to the completion.
        let read: @Sendable ([[[UInt8]]], @escaping RedisCommands.Completion) -> Void
        /// Send the owner a request (`RelayRequest.data`).
        let askForData: @Sendable () -> Void
        /// The mirror has its first frame: the room's joiners can be greeted.
        let live: @Sendable () -> Void
        /// Events were missed (Redis was lost, or dropped the subscription): the room's clients
        /// here must start again from a new hello.
        let gap: @Sendable () -> Void
        /// Bytes on the room's channel or in its keys that no server wrote (out of `WireBounds`,
        /// or malformed) were dropped: said once per mirror (`why`).
        let refused: @Sendable (_ why: String) -> Void
    }

    fileprivate enum Phase { case subscribing, catchingUp([RoomBroadcast]), live }

    /// What the mirror holds, under its lock (`RoomMirror+Broadcasts` applies broadcasts to it).
    struct State {
        fileprivate var phase = Phase.subscribing
        /// Catch-ups started (each subscription, each loss): a late reply or retry of an
        /// older one is ignored.
        var catchUps = 0
        /// The room's clients here were closed for a catch-up that did not succeed in time.
        var toldGap = false
        var lastSerial = 0
        var localSerial = 0
        var membership: ReplicatedFrame.Membership?
        var clients = 0
        /// The server that steps the room, as it last said.
        var owner = ""
        /// Joiners waiting for the room's `data` message, with the last event their opening had.
        var waiting: [(through: UInt64, mailbox: Mailbox)] = []
        var askedForData = false
        var announcedLive = false
        var saidRefused = false
        var readingMembership = false
        /// The mailboxes of the room's clients here (a `data` for everyone goes to each).
        var mailboxes: [ObjectIdentifier: Mailbox] = [:]

        /// Clients here have been greeted or wait to be: a gap in the events concerns them.
        var isWatched: Bool { !mailboxes.isEmpty || !waiting.isEmpty }
    }

    let room: Room
    private let keys: ClusterKeys
    let link: Link
    private let state = Mutex(State())

    init(room: Room, owner: String, link: Link) {
        self.room = room
        keys = ClusterKeys(room.name)
        self.link = link
        state.withLock { $0.owner = owner }
    }

    package var isLive: Bool {
        state.withLock { state in
            if case .live = state.phase { return room.frames.current != nil }
            return false
        }
    }

    /// The server that steps the room, as it last said.
    var owner: String { state.withLock { $0.owner } }

    /// Clients of the room on every server, as the owner last said.
    package var clients: Int { state.withLock { $0.clients } }

    /// The subscription (re)started: read what Redis holds, then go on from there. The read
    /// is tried again every `retryInterval` until Redis answers it (the command connection
    /// may come back after the subscription: Redis restarted); once the room's clients here
    /// have waited `resyncBound` without a catch-up, they are closed (1012) rather than kept
    /// silent, and joiners wait for it as long as `Server.roomWaitSeconds` allows.
    func subscribed() {
        let attempt = state.withLock { state -> Int in
            state.phase = .catchingUp([])
            state.catchUps += 1
            state.announcedLive = false
            return state.catchUps
        }
        catchUp(attempt, since: Uptime.seconds())
    }

    /// Seconds between tries of a catch-up read that failed.
    static let retryInterval = 0.25
    /// A catch-up that has not succeeded this long after the subscription restarted closes
    /// the room's clients here (1012): they reconnect and wait for a correct hello.
    static let resyncBound = 3.0

    private func catchUp(_ attempt: Int, since started: Double) {
        link.read([
            RedisCommand.words("MULTI"),
            RedisCommand.words("HGETALL", keys.mirror),
            RedisCommand.words("LRANGE", keys.events, "0", "-1"),
            RedisCommand.words("EXEC"),
        ]) { [self] result in
            guard case .success(let replies) = result, replies.count == 4, case .array(let read) = replies[3],
                  read.count == 2 else {
                return retry(attempt, since: started)
            }
            caughtUp(hash: read[0], events: read[1], attempt: attempt)
        }
    }

    /// The catch-up read `attempt` did not reach Redis: tried again shortly, unless the
    /// subscription was lost meanwhile (the next one starts its own) or the room is no longer
    /// relayed through this mirror (it left this server, or this server steps it now).
    private func retry(_ attempt: Int, since started: Double) {
        guard room.mirror === self else { return }
        let (current, closeClients) = state.withLock { state -> (Bool, Bool) in
            guard state.catchUps == attempt, case .catchingUp = state.phase else { return (false, false) }
            guard Uptime.seconds() - started >= Self.resyncBound, state.isWatched, !state.toldGap else { return (true, false) }
            state.toldGap = true
            return (true, true)
        }
        guard current else { return }
        if closeClients { link.gap() }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.retryInterval) { [self] in
            let still = state.withLock { state -> Bool in
                guard state.catchUps == attempt, case .catchingUp = state.phase else { return false }
                return true
            }
            if still { catchUp(attempt, since: started) }
        }
    }

    private func caughtUp(hash: RedisReply, events: RedisReply, attempt: Int) {
        let fields = hash.fields
        var stored: [RoomBroadcast] = []
        if let bytes = fields["membership"] {
            if let membership = decoded({ () throws(WireMalformed) in try ReplicatedFrame.Membership(decoding: bytes) }) {
                state.withLock { $0.membership = membership }
            }
        }
        if let bytes = fields["frame"], let frame = decoded({ () throws(WireMalformed) in try RoomBroadcast(decoding: bytes) }) {
            stored.append(frame)
        }
        if let bytes = fields["status"], let status = decoded({ () throws(WireMalformed) in try ReplicatedStatus(decoding: bytes) }) {
            stored.append(.status(status))
        }
        // Who points where, for the joiners' `hello` (an owner of an older build keeps none).
        if let bytes = fields["pointers"], let pointers = decoded({ () throws(WireMalformed) in try RoomBroadcast(decoding: bytes) }),
           case .pointers(_, whole: true) = pointers {
            stored.append(pointers)
        }
        // Who may come in: read before the room's joiners here are greeted (a room of an older
        // owner has none: open, without links).
        if let bytes = fields["access"], let access = decoded({ () throws(WireMalformed) in try RoomAccess(decoding: bytes) }) {
            stored.insert(.access(access), at: 0)
        }
        if case .array(let items) = events {
            var list: [ReplicatedEvent] = []
            for item in items {
                guard let bytes = item.bytes else { continue }
                let event = decoded { () throws(WireMalformed) in
                    var reader = WireReader(bytes)
                    let event = try ReplicatedEvent(from: &reader)
                    try reader.finish()
                    return event
                }
                if let event { list.append(event) }
            }
            stored.insert(.events(list), at: 0)
        }
        let becameLive = state.withLock { state -> Bool in
            guard state.catchUps == attempt, case .catchingUp(let buffered) = state.phase else { return false }
            state.phase = .live
            state.toldGap = false
            for broadcast in stored + buffered { apply(broadcast, &state) }
            return markLive(&state)
        }
        if becameLive { link.live() }
    }

    /// Reads the room's current membership from Redis (a frame's never came).
    func readMembership() {
        link.read([RedisCommand.words("HGET", keys.mirror, "membership")]) { [self] result in
            let membership: ReplicatedFrame.Membership? = {
                guard case .success(let replies) = result, let bytes = replies.first?.bytes else { return nil }
                return try? ReplicatedFrame.Membership(decoding: bytes)
            }()
            state.withLock { state in
                state.readingMembership = false
                if let membership, membership.version > (state.membership?.version ?? -1) { state.membership = membership }
            }
        }
    }

    /// A broadcast from the owner (subscriber thread).
    func received(_ payload: [UInt8]) {
        guard let broadcast = decoded({ () throws(WireMalformed) in try RoomBroadcast(decoding: payload) }) else { return }
        let becameLive = state.withLock { state -> Bool in
            switch state.phase {
            case .subscribing:
                return false
            case .catchingUp(var buffered):
                // However long the read takes (it is retried until Redis answers), frames held
                // meanwhile do not pile up: a newer one replaces those without a membership.
                if case .frame = broadcast { buffered.removeAll(where: \.isBareFrame) }
                buffered.append(broadcast)
                state.phase = .catchingUp(buffered)
                return false
            case .live:
                apply(broadcast, &state)
                return markLive(&state)
            }
        }
        if becameLive { link.live() }
    }

    /// Redis was lost: whatever comes after the next subscription starts from a new read.
    func lost() {
        state.withLock { state in
            state.phase = .subscribing
            state.catchUps += 1
        }
    }

    /// The owner's serial of the last frame mirrored (a server taking the room over goes on
    /// from it).
    package var lastSerial: Int { state.withLock { $0.lastSerial } }

    /// A client of the room here, greeted, or gone.
    func attach(_ mailbox: Mailbox) { state.withLock { $0.mailboxes[ObjectIdentifier(mailbox)] = mailbox } }

    func detach(_ mailbox: Mailbox) { state.withLock { $0.mailboxes[ObjectIdentifier(mailbox)] = nil } }

    /// A joiner whose opening ended with event `through` waits for the room's `data` message.
    func waitForData(_ mailbox: Mailbox, through: UInt64) {
        let ask = state.withLock { state -> Bool in
            state.waiting.append((through, mailbox))
            defer { state.askedForData = true }
            return !state.askedForData
        }
        if ask { link.askForData() }
    }

    /// What `decode` gives, or nil when the bytes are refused (said once per mirror).
    private func decoded<Value>(_ decode: () throws(WireMalformed) -> Value) -> Value? {
        do {
            return try decode()
        } catch {
            let first = state.withLock { state in
                defer { state.saidRefused = true }
                return !state.saidRefused
            }
            if first { link.refused(error.description) }
            return nil
        }
    }

    private func markLive(_ state: inout State) -> Bool {
        guard !state.announcedLive, room.frames.current != nil else { return false }
        state.announcedLive = true
        return true
    }
}

private extension RoomBroadcast {
    /// A frame without its membership parts: a newer frame makes it useless.
    var isBareFrame: Bool {
        if case .frame(let frame, _) = self { return frame.membership == nil }
        return false
    }
}
