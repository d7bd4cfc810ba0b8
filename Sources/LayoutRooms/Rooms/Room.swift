import EventBus
import ForceLayout
import LayoutCore
import Synchronization

/// One room: a layout of its own, with its event bus, command queue, newest frame and status.
/// The shared parts are `Sendable`; the layout itself (`RoomLayout`) sits behind a lock and is
/// stepped by one thread of the pool at a time (`StepSchedule` hands a room to one thread).
///
/// In a cluster (`--redis`) a room on this server may have no layout: its owner, another
/// server, steps it, and this server mirrors it (`RoomRole.relay`); the bus, frames and status
/// are then filled from what the owner broadcasts, and the connections are served from them
/// exactly as from a layout stepped here.
package final class Room: Sendable {
    package let name: RoomName
    package let bus: EventBus<LayoutEvent>
    /// Each event encoded once for all the room's connections (sequence numbers are the
    /// room's own, so the cache must be too).
    package let eventMessages = EventMessages()
    package let commands = CommandQueue()
    package let requests = TurnRequests()
    package let frames = FrameBoard()
    package let status = StatusBoard()
    /// Who may come in and as what (`RoomAccess`), for handshakes and connections.
    package let access = AccessBoard()
    /// Who points where (`PointerBoard`): changed by the room's turn here, or mirrored.
    package let pointers = PointerBoard()
    /// Its past: events, keyframes and checkpoints (`RoomHistory`), appended by its turn.
    package let history: RoomHistory
    /// In a cluster, the access this server made for the room's creator (its first joiner
    /// here), for whichever server makes the room if nobody made it before (`NodeMessage.adopt`).
    package let proposedAccess = Mutex<RoomAccess?>(nil)
    /// Its WebSocket clients on this server (the registry's count, for other threads).
    let localClients = Atomic<Int>(0)
    /// Its v1 clients on this server: while there are none, its frames' text forms are
    /// written only at a joiner's demand (`TextFrame`).
    package let textReaders = Atomic<Int>(0)
    /// The room left this server (forgotten or unloaded): what the cluster learns of it late
    /// (a lease taken, a mirror made) is given back.
    package let isGone = Atomic<Bool>(false)
    /// Told when this room published something its connections should see.
    private let changed: ChangedRooms
    private let layout: Mutex<RoomLayout?>
    private let roleBox: Mutex<RoomRole>

    init(name: RoomName, layout: consuming sending RoomLayout, replay: ReplayBounds, history: RoomHistory = RoomHistory(bounds: .off), changed: ChangedRooms) {
        self.name = name
        bus = EventBus(replay: replay)
        self.history = history
        self.changed = changed
        self.layout = Mutex(layout)
        roleBox = Mutex(.local)
        // The first frame and status, before any client is served from them.
        self.layout.withLock { $0?.publishChanges(to: self) }
    }

    /// A room of the cluster whose owner is not known yet: no layout, no frame, until this
    /// server takes its lease (`install`) or mirrors its owner (`relay`).
    convenience init(pendingName name: RoomName, replay: ReplayBounds, history: RoomHistory = RoomHistory(bounds: .off), changed: ChangedRooms) {
        self.init(layoutless: name, role: .pending, replay: replay, history: history, changed: changed)
    }

    /// A room whose file is being read (`RoomHost+Loading`): no layout until `installLocal`.
    convenience init(loadingName name: RoomName, replay: ReplayBounds, history: RoomHistory = RoomHistory(bounds: .off), changed: ChangedRooms) {
        self.init(layoutless: name, role: .loading, replay: replay, history: history, changed: changed)
    }

    private init(layoutless name: RoomName, role: RoomRole, replay: ReplayBounds, history: RoomHistory = RoomHistory(bounds: .off), changed: ChangedRooms) {
        self.name = name
        bus = EventBus(replay: replay)
        self.history = history
        self.changed = changed
        layout = Mutex(nil)
        roleBox = Mutex(role)
    }

    package var role: RoomRole { roleBox.withLock { $0 } }

    /// A room loading from its file gets its layout: `make` builds it inside the lock (on the
    /// file reader's thread: restoring a large room takes a while). False when the room left
    /// meanwhile (unloaded or forgotten while loading): nothing is made.
    func installLocal(_ make: @Sendable () -> RoomLayout) -> Bool {
        // Checked inside the lock `close` takes: the room leaves (`isGone`) before its closing
        // write is queued, so either that write finds this layout or no layout is made.
        let installed = layout.withLock { layout in
            guard !isGone.load(ordering: .acquiring) else { return false }
            layout = make()
            layout?.publishChanges(to: self)
            return true
        }
        if installed { roleBox.withLock { $0 = .local } }
        return installed
    }

    /// This server steps the room now (it took the lease): `make` builds its layout (inside the
    /// lock, so the layout never leaves it), and `replicator` tells the cluster.
    package func install(replicator: any RoomOwnerLink, _ make: @Sendable () -> RoomLayout) {
        roleBox.withLock { $0 = .owner(replicator) }
        replicator.attach(to: self)
        layout.withLock { layout in
            layout = make()
            layout?.publishChanges(to: self)
            // Taken over (a failover): what was mirrored of the pointers holds, but for cells
            // the state lacks; the relays take this server's set as the room's.
            if let simulation = layout?.state.simulation { changePointers { $0.keep(cells: simulation.contains) } }
        }
        republishPointers()
    }

    /// Another server steps the room; `mirror` fills it from what that server broadcasts
    /// (nil: the room leaves this server, and the mirror lets go of it).
    package func relay(_ mirror: (any RoomRelayLink)?) {
        roleBox.withLock { $0 = mirror.map { .relay($0) } ?? .pending }
    }

    /// Whether connections can be served: the room has a layout here or a mirror in step.
    package var isReady: Bool {
        switch role {
        case .local, .owner: true
        case .pending, .loading: false
        case .relay(let mirror): mirror.isLive
        }
    }

    package var replicator: (any RoomOwnerLink)? {
        if case .owner(let replicator) = role { return replicator }
        return nil
    }

    package var mirror: (any RoomRelayLink)? {
        if case .relay(let mirror) = role { return mirror }
        return nil
    }

    /// Clients of the room on every server (only this one's without a cluster).
    package var clients: Int {
        switch role {
        case .local, .pending, .loading: localClients.load(ordering: .relaxed)
        case .owner(let replicator): localClients.load(ordering: .relaxed) + replicator.remoteClients
        case .relay(let mirror): max(mirror.clients, localClients.load(ordering: .relaxed))
        }
    }

    /// One turn of the pool (`StepSchedule`): the commands and requests waiting; in a frame
    /// turn, steps while the layout moves and `budget` allows (at least one), with what comes
    /// meanwhile applied between two steps, then the newest frame and status published once;
    /// a save when due; cells joining or leaving end the stepping, so the frame shows them at
    /// once. An early turn (`early`: commands came before the frame was due) of a layout that
    /// goes on stepping only applies and answers (and publishes the frame if cells joined or
    /// left). `othersWaiting` ends the stepping
    /// early (after the first step): another room is due and no thread is free for it.
    ///
    /// The layout's lock is taken for each part, not for the whole turn: the service thread's
    /// `cellCount` or `dataMessage` waits one step at most. A room given up meanwhile
    /// (`abandon`: no layout) or gone (`isGone`, set before its closing write or its file's
    /// removal is queued, both of which take the lock) does nothing more: no step, and no save
    /// after its last one.
    func turn(budget: TurnBudget, early: Bool, othersWaiting: () -> Bool = { false }) -> TurnOutcome {
        let start = Uptime.seconds()
        let begun = layout.withLock { layout -> Bool? in
            guard layout != nil, !isGone.load(ordering: .acquiring) else { return nil }
            return layout!.beginTurn(of: self, early: early)
        }
        guard let framed = begun else { return .idle }
        var steps = 0
        while framed {
            let step = layout.withLock { layout -> (step: (seconds: Double, membership: Bool)?, publishing: Double)? in
                guard layout != nil, !isGone.load(ordering: .acquiring) else { return nil }
                return (layout!.stepOnce(of: self), layout!.publishSeconds)
            }
            guard let step else { return .idle }
            guard let taken = step.step else { break }
            steps += 1
            guard !taken.membership, budget.allowsStep(after: steps, elapsed: Uptime.seconds() - start, lastStep: taken.seconds,
                                                       publishing: step.publishing), !othersWaiting() else { break }
        }
        return layout.withLock { layout -> TurnOutcome in
            guard layout != nil, !isGone.load(ordering: .acquiring) else { return .idle }
            return layout!.endTurn(of: self, frameTurn: framed, steps: steps)
        }
    }

    /// The interval between frames at the room's `tickRate` (its frame rate), in seconds.
    var stepInterval: Double { 1 / status.current.parameters.tickRate }

    /// Writes the room's file one last time (unloading, or the server stopping). Waits for a
    /// turn under way on another thread.
    func close() {
        layout.withLock { $0?.close() }
        history.flush()
    }

    /// The last of a room handed off (out of the pool): every command it holds applied and
    /// published with a last frame (`RoomLayout.finish`), then its state written (`close`).
    func finish() {
        layout.withLock { $0?.finish(self) }
        close()
    }

    /// Deletes the room's file (a forgotten room), after any write under way.
    func discard() {
        layout.withLock { $0?.keeper?.discard() }
        history.remove()
    }

    /// The room's `data` message now (nil: no data, or no layout here).
    package func dataMessage() -> OutgoingMessage? {
        layout.withLock { $0?.currentDataMessage() }
    }

    /// The room stops being stepped here (its lease went to another server): no layout, no
    /// role, nothing written.
    package func abandon() {
        roleBox.withLock { $0 = .pending }
        layout.withLock { $0 = nil }
    }

    /// Cells it holds, for the total (`CellBudget`) when it leaves memory.
    package var cellCount: Int { layout.withLock { $0?.state.simulation.count ?? 0 } }

    /// Links it holds (0 for a room this server only relays).
    package var linkCount: Int { layout.withLock { $0?.state.simulation.links.count ?? 0 } }

    package func announce() { changed.insert(name) }

    /// The status as clients and relays are told it (`hello`, `stats`, the cluster): with the
    /// size of the newest frame's text form, counted only when someone asks if it was not
    /// written (a room of v2 clients, `TextFrame`).
    package var reportedStatus: LayoutStatus {
        var reported = status.current
        if let bytes = frames.current?.text.bareCount { reported.frameBytes = bytes }
        return reported
    }

    /// A client of the room joined or left (here, or in a cluster on any server): everyone
    /// hears it with the count now, and the cluster learns the new count.
    package func presence(_ kind: EventKind, of client: String) {
        bus.publish(LayoutEvent(kind: kind, by: client, tick: status.current.tick,
                                detail: .membership(client: client, clients: clients)))
        publish(.status)
        // A client that left points nowhere: everyone hears it after its `left`.
        if kind == .left { changePointers { $0.leave(client) } }
        announce()
    }

    /// The room's pointers change by `transition` (`Pointers`): its connections here hear
    /// what it returns, and so, in a cluster, do the other servers' (through the listener).
    package func changePointers(_ transition: (inout Pointers) -> [Pointer]) {
        let (sent, all) = pointers.change(transition)
        guard !sent.isEmpty else { return }
        publish(.pointers(sent: sent, all: all))
        announce()
    }

    /// The whole set of pointers again, to whoever listens (a server that took the room over:
    /// relays replace what they mirrored from the previous owner with it).
    package func republishPointers() {
        publish(.pointers(sent: nil, all: pointers.current))
    }

    /// Who hears what the room publishes from outside this server (in a cluster, the owner's
    /// replicator); nil: nobody.
    var listener: RoomListener? { replicator }

    /// Whether frames are written in their text form as they are published: a v1 client is in
    /// the room, here or (in a cluster) on another server.
    var wantsText: Bool {
        textReaders.load(ordering: .relaxed) > 0 || (replicator?.remoteTextReaders ?? 0) > 0
    }

    /// `publication` to the room's listener, if it has one (`RoomPublication`).
    func publish(_ publication: @autoclosure () -> RoomPublication) {
        guard let listener else { return }
        listener.published(publication(), by: self)
    }
}

/// How a room is kept on this server.
package enum RoomRole: Sendable {
    /// No cluster: stepped here.
    case local
    /// No cluster: its file is being read; stepped here once it is (`installLocal`).
    case loading
    /// In a cluster, before its owner is known.
    case pending
    /// This server holds its lease and steps it; the replicator tells the other servers.
    case owner(any RoomOwnerLink)
    /// Another server steps it; the mirror fills it from Redis.
    case relay(any RoomRelayLink)

    package var isPending: Bool {
        if case .pending = self { return true }
        return false
    }

    /// Stepped here (alone or for the cluster).
    package var hasLayout: Bool {
        switch self {
        case .local, .owner: true
        case .pending, .relay, .loading: false
        }
    }
}

/// The rooms that published something since the service thread last looked, and the wake-up
/// that makes it look (`lws_cancel_service`).
package final class ChangedRooms: Sendable {
    private let names = Mutex<Set<RoomName>>([])
    private let waker = Mutex<ServiceWaker?>(nil)

    func attach(_ serviceWaker: ServiceWaker) { waker.withLock { $0 = serviceWaker } }

    func insert(_ name: RoomName) {
        let first = names.withLock { $0.insert(name).inserted && $0.count == 1 }
        // One wake-up covers every room inserted until the service thread takes them.
        if first { waker.withLock { $0?.wake() } }
    }

    package func take() -> Set<RoomName> {
        names.withLock { names in
            defer { names.removeAll(keepingCapacity: true) }
            return names
        }
    }
}
