import ForceLayout
import Foundation
import LayoutCore
import Logging

/// The rooms of one server, on the service thread: which exist (`RoomRegistry` decides),
/// making and loading them, handing them to the step pool, and unloading or forgetting them
/// when the registry says so. The files and the pool do the work; this only carries it out.
package final class RoomHost {
    package enum Admission {
        /// `creator`: the room was made for this client, who is its owner (the secret of its
        /// owner's link, which only this client is told).
        case room(Room, creator: LinkSecret?)
        /// The handshake gets this HTTP status; `why` goes to the log.
        case refused(status: UInt32, why: String)
    }

    package let limits: Limits
    /// The access of rooms made from now on (`--default-access`).
    package let defaultAccess: AccessMode
    package let files: RoomFiles
    package let budget: CellBudget
    package let changed = ChangedRooms()
    /// This server's part in the cluster (`--redis`; LayoutCluster's `ClusterNode`); nil: a
    /// server on its own.
    package let cluster: (any RoomCluster)?
    // Package, not private, for the cluster's part (LayoutCluster's `ClusterNode+Rooms`); only
    // this class and that extension change them.
    package let pool: StepPool
    let logger: Logger
    private let seed: UInt64
    package var registry: RoomRegistry
    package var rooms: [RoomName: Room] = [:]
    /// Rooms unloaded whose last write is under way (off the service thread: a large room's
    /// file takes tens of ms to write and fsync); loading one again waits for it.
    package var closing: [RoomName: DispatchGroup] = [:]
    /// Seconds a forgotten room's file is kept aside (`--forgotten-retention-days`).
    let forgottenRetention: Double
    var nextPurge = 0.0
    let closer = DispatchQueue(label: "forcelayout.rooms.closing", attributes: .concurrent)
    /// The hand-offs of a draining server under way (`handOff`).
    package let handingOff = DispatchGroup()
    /// Wakes the service thread (set by `start`).
    private(set) var waker: ServiceWaker?
    /// Room files found unusable, refused at once until they change.
    package var refusedFiles = FileVerdicts()
    /// Reads room files off the service thread (loads, and exports of rooms only on disk).
    package let reader = StateFileReader()
    /// Rooms whose file the reader read (`RoomHost+Loading`).
    package let loads = RoomLoads()

    package init(config: ServerConfig, cluster: (any RoomCluster)?, logger: Logger) {
        limits = config.limits
        defaultAccess = config.defaultAccess
        files = RoomFiles(directory: config.stateDirectory, mainFile: config.statePath)
        budget = CellBudget(limit: config.limits.maxTotalCells)
        pool = StepPool(threads: config.stepThreads ?? ProcessInfo.processInfo.activeProcessorCount)
        self.cluster = cluster
        self.logger = logger
        seed = config.seed ?? UInt64.random(in: 1...UInt64.max)
        forgottenRetention = config.forgottenRetentionSeconds
        for name in files.removeStaleTemporaries() {
            logger.info("removed \(name), a temporary state file its writer (no longer running) left behind")
        }
        let stored = files.stored()
        registry = RoomRegistry(policy: .init(
            maxRooms: config.limits.maxRooms, roomsPerMinute: config.limits.roomsPerMinute,
            forgetAfter: Double(config.roomForgetSeconds),
            // Only a room with a file can leave memory without losing its layout.
            unloadAfter: Double(config.limits.roomIdleSeconds),
            maxRoomsPerAddress: config.limits.maxRoomsPerAddress,
            evictAfter: Double(config.roomEvictSeconds)), onDisk: stored)
        if !stored.isEmpty { logger.info("\(stored.count) room(s) on disk") }
    }

    package func start(waker: ServiceWaker) {
        self.waker = waker
        changed.attach(waker)
        loads.attach(waker)
        pool.start()
        let pool = pool
        cluster?.start(waker: waker) { pool.wake($0) }
    }

    /// Loads `main` now when it has a file, so a bad one stops the server at start (as a
    /// bad `--state` always did) instead of refusing its clients later.
    package func loadMain() throws(StartFailure) {
        guard let path = files.path(for: .main), FileManager.default.fileExists(atPath: path) else { return }
        let saved: SavedState?
        do {
            saved = try StateFile.load(from: path)
        } catch {
            throw StartFailure(description: error.description)
        }
        if let saved, saved.layout.cells.count > limits.maxCells {
            throw StartFailure(description: "state file \(path) holds \(saved.layout.cells.count) cells, more than --max-cells \(limits.maxCells)")
        }
    }

    /// A client wants room `name`: the room (made or loaded if need be, the client counted),
    /// or why not.
    package func admit(_ name: RoomName, from address: PeerAddress, now: Double) -> Admission {
        let admission = join(name, from: address, now: now)
        if case .room(let room, _) = admission {
            room.localClients.store(registry.loaded[name]?.clients ?? 0, ordering: .relaxed)
        }
        return admission
    }

    private func join(_ name: RoomName, from address: PeerAddress, now: Double) -> Admission {
        switch registryJoin(name, from: address, now: now) {
        case .join(let name):
            // The registry and `rooms` change together; a room it has must be here.
            guard let room = rooms[name] else {
                registry.failed(name)
                return .refused(status: 503, why: "room \(name): not in memory after all (a bug: see the log)")
            }
            return .room(room, creator: nil)
        case .create(let name) where cluster != nil, .load(let name) where cluster != nil:
            // Whether it is stepped here or relayed is for the cluster to find out (`won`,
            // `RoomMirror`); the joiners wait for it. If nobody made the room before, whichever
            // server steps it makes it with this access, and this joiner is its owner.
            let cluster = cluster
            let owner = LinkSecret.random()
            let proposal = RoomAccess(mode: defaultAccess, links: LinkDigests(ownerSecret: owner))
            return .room(openPending(name, proposing: proposal) { cluster?.claim($0) }, creator: owner)
        case .create(let name):
            let owner = LinkSecret.random()
            return .room(open(name, access: RoomAccess(mode: defaultAccess, links: LinkDigests(ownerSecret: owner))), creator: owner)
        case .load(let name):
            // Read on the file reader's thread, its cells then reserved in the total (idle rooms
            // make room), its layout made there; the joiners wait for it (`RoomHost+Loading`).
            return startLoading(name)
        case .refuse(.full(let count)):
            return .refused(status: 503, why: "room \(name): \(count) rooms are in memory already, none of them idle (--max-rooms)")
        case .refuse(.tooFast(let count)):
            return .refused(status: 429, why: "room \(name): \(address) created \(count) rooms in the last minute (--rooms-per-minute)")
        case .refuse(.tooMany(let count)):
            return .refused(status: 429, why: "room \(name): \(address) created \(count) of the rooms in memory already (--max-rooms-per-address)")
        }
    }

    /// What the registry says of a client joining room `name`: a room file put there while
    /// the server runs is found first, and when the rooms are full an idle one makes way.
    private func registryJoin(_ name: RoomName, from address: PeerAddress, now: Double) -> RoomRegistry.JoinAction {
        if registry.loaded[name] == nil, !registry.onDisk.contains(name), let path = files.path(for: name),
           FileManager.default.fileExists(atPath: path) {
            // Put there while the server runs: loaded, never overwritten by an empty room.
            registry.found(name)
        }
        var action = registry.join(name, from: address, now: now)
        if case .refuse(.full) = action {
            refreshRegistry(now: now)
            if let way = registry.makeWay(now: now) {
                carryOut(way, because: "to make way for room \(name) (--max-rooms)")
                action = registry.join(name, from: address, now: now)
            }
        }
        return action
    }

    /// A client of `room` left (or its handshake did not complete).
    package func left(_ room: Room, now: Double) {
        registry.left(room.name, now: now)
        room.localClients.store(registry.loaded[room.name]?.clients ?? 0, ordering: .relaxed)
    }

    /// Hands a command to its room's next turn.
    func submit(_ command: QueuedCommand, to room: Room) {
        room.commands.push(command)
        pool.wake(room)
    }

    /// Hands a request to its room's next turn (`TurnRequest`).
    package func request(_ request: TurnRequest, of room: Room) {
        room.requests.push(request)
        pool.wake(room)
    }

    /// The rooms in memory for `GET /rooms` that `listed` lets through (by their access): most
    /// clients first, at most 100.
    package func listing(where listed: (RoomAccess) -> Bool) -> [(room: Room, clients: Int)] {
        registry.listing { name in rooms[name].map { listed($0.access.current.access) } ?? false }
            .compactMap { entry in rooms[entry.name].map { ($0, entry.room.clients) } }
    }

    func room(_ name: RoomName) -> Room? { rooms[name] }

    /// Clients of the room here (and, in a cluster, on every server).
    package func clients(of name: RoomName) -> Int {
        guard let room = rooms[name], cluster != nil else { return registry.loaded[name]?.clients ?? 0 }
        return room.clients
    }

    /// Stops stepping and writes every room's file one last time (in parallel: one fsync each);
    /// in a cluster, then gives the leases back.
    package func stop() {
        pool.stop()
        for group in closing.values { group.wait() }
        _ = handingOff.wait(timeout: .now() + 5)
        let open = Array(rooms.values)
        DispatchQueue.concurrentPerform(iterations: open.count) { open[$0].close() }
        cluster?.stop()
    }

    /// A new room's empty layout in memory and in the pool, with its access.
    private func open(_ name: RoomName, access: RoomAccess) -> Room {
        let layout = layoutMaker(name, path: files.path(for: name))(nil, nil, access)()
        budget.force(layout.state.simulation.count)
        // A new room's history starts empty, whatever an older room of its name left.
        if let folder = files.historyPath(for: name) { try? FileManager.default.removeItem(atPath: folder) }
        let room = Room(name: name, layout: layout, replay: limits.replay, history: history(for: name), changed: changed)
        rooms[name] = room
        pool.add(room)
        logger.info("room \(name) created (\(rooms.count) in memory)")
        return room
    }

    /// The room's history: in its folder beside its file when it has one, else in memory.
    func history(for name: RoomName) -> RoomHistory {
        RoomHistory(bounds: limits.history, sink: files.historyPath(for: name).map { HistoryFolder(path: $0, logger: logger) })
    }

    package func layoutParts(_ name: RoomName, saved: SavedState?) -> LayoutParts {
        LayoutParts(name: name, seed: Self.seed(seed, for: name), saved: nil, logger: logger, ids: IDReservation(nextID: 1, reservation: 1))
            .restoring(saved)
    }

    /// Each room its own random stream, reproducible under `--seed`.
    private static func seed(_ seed: UInt64, for name: RoomName) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.description.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return name == .main ? seed : (seed ^ hash) | 1
    }
}

/// What a room's layout is made from (its saved state, or nothing for a new room): `Sendable`,
/// so the simulation itself can be built where it will live (`Room.install`).
package struct LayoutParts: Sendable {
    let name: RoomName
    let seed: UInt64
    package let saved: SavedState?
    let logger: Logger
    package let ids: IDReservation

    package func simulation() -> Simulation {
        guard let saved else { return Simulation(parameters: .defaults, seed: seed) }
        var layout = saved.layout
        layout.nextID = ids.firstID
        do {
            return try Simulation(snapshot: layout, seed: seed)
        } catch {
            // Already validated when the state was read; this cannot fail in practice.
            logger.error("room \(name): restored layout rejected (\(error)); starting empty")
            return Simulation(parameters: .defaults, seed: seed)
        }
    }

    /// The same room's parts for `saved`: numbering resumes above every id that may have been
    /// handed out.
    func restoring(_ saved: SavedState?) -> LayoutParts {
        LayoutParts(name: name, seed: seed, saved: saved, logger: logger,
                    ids: IDReservation(nextID: saved?.layout.nextID ?? 1, reservation: saved?.reservation ?? 1))
    }
}
