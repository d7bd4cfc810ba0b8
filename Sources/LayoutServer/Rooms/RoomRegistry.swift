/// Which rooms exist and where (in memory, or only in the state directory), and what to do
/// when a client wants one, leaves one, or time passes. Pure: the caller turns each returned
/// action into work (create a layout, load or save a room file, drop a room), so every
/// transition is tested without sockets, threads or files.
///
/// - `maxRooms` bounds the rooms in memory: creating or loading one more is refused (503).
/// - One address may create at most `roomsPerMinute` new rooms in any 60 s (429); loading a
///   room from disk or joining one in memory is not creating.
/// - A room with no clients and no cells is forgotten `forgetAfter` seconds after it emptied.
/// - A room with no clients that has settled is saved and unloaded `unloadAfter` seconds after
///   its last client left (it stays on disk; the next client loads it again).
struct RoomRegistry {
    struct Policy: Equatable {
        var maxRooms: Int
        var roomsPerMinute: Int
        var forgetAfter: Double = 60
        var unloadAfter: Double = 300
    }

    enum Refusal: Equatable {
        /// `maxRooms` rooms are in memory (HTTP 503).
        case full(Int)
        /// This address created `roomsPerMinute` rooms in the last minute (HTTP 429).
        case tooFast(Int)
    }

    enum JoinAction: Equatable {
        /// The room is in memory: serve the client from it.
        case join(RoomName)
        /// A new, empty room: make its layout, then serve the client.
        case create(RoomName)
        /// The room is on disk only: load its file, then serve the client.
        case load(RoomName)
        case refuse(Refusal)
    }

    enum SweepAction: Equatable {
        /// Empty and unvisited: drop it (it has no file worth keeping).
        case forget(RoomName)
        /// Settled and unvisited: write its file, then drop it from memory.
        case unload(RoomName)
    }

    /// What the registry knows of a room in memory.
    struct Room: Equatable {
        var clients = 0
        var cells = 0
        var settled = true
        /// Whether it has a file to be unloaded into (else it stays in memory while it has cells).
        var unloadable = true
        /// When its last client left (nil while it has clients).
        var emptySince: Double?
    }

    let policy: Policy
    private(set) var loaded: [RoomName: Room] = [:]
    private(set) var onDisk: Set<RoomName> = []
    private var creations: [PeerAddress: [Double]] = [:]

    init(policy: Policy, onDisk: some Sequence<RoomName> = []) {
        self.policy = policy
        self.onDisk = Set(onDisk)
    }

    /// A client asks for `name` from `address`. On anything but a refusal, the room is in
    /// memory with the client counted.
    mutating func join(_ name: RoomName, from address: PeerAddress, now: Double) -> JoinAction {
        if loaded[name] != nil {
            admit(name)
            return .join(name)
        }
        guard loaded.count < policy.maxRooms else { return .refuse(.full(policy.maxRooms)) }
        if onDisk.contains(name) {
            loaded[name] = Room()
            admit(name)
            return .load(name)
        }
        var recent = creations[address, default: []].filter { $0 > now - 60 }
        guard recent.count < policy.roomsPerMinute else {
            creations[address] = recent
            return .refuse(.tooFast(policy.roomsPerMinute))
        }
        recent.append(now)
        creations[address] = recent
        loaded[name] = Room()
        admit(name)
        return .create(name)
    }

    /// A room another server placed here, with no client here yet (in a cluster); false when
    /// it is here already or `maxRooms` are.
    mutating func adopt(_ name: RoomName, now: Double) -> Bool {
        guard loaded[name] == nil, loaded.count < policy.maxRooms else { return false }
        loaded[name] = Room(emptySince: now)
        return true
    }

    /// A client of `name` left (or its join failed: the room could not be made or loaded).
    mutating func left(_ name: RoomName, now: Double) {
        guard var room = loaded[name], room.clients > 0 else { return }
        room.clients -= 1
        if room.clients == 0 { room.emptySince = now }
        loaded[name] = room
    }

    /// What the room's layout says of itself now.
    mutating func update(_ name: RoomName, cells: Int, settled: Bool, unloadable: Bool = true) {
        guard var room = loaded[name] else { return }
        room.cells = cells
        room.settled = settled
        room.unloadable = unloadable
        loaded[name] = room
    }

    /// In a cluster, whether the room stepped here has clients on other servers: while it has,
    /// it stays as if it had clients here; once they are gone it counts as empty from `now`
    /// (unless it has clients here).
    mutating func watched(_ name: RoomName, elsewhere: Bool, now: Double) {
        guard var room = loaded[name] else { return }
        if elsewhere {
            room.emptySince = nil
        } else if room.clients == 0, room.emptySince == nil {
            room.emptySince = now
        }
        loaded[name] = room
    }

    /// A room that could not be made or loaded: it is not in memory after all.
    mutating func failed(_ name: RoomName) {
        loaded[name] = nil
    }

    /// The rooms to forget or unload now; they are no longer in memory once returned.
    mutating func sweep(now: Double) -> [SweepAction] {
        var actions: [SweepAction] = []
        for (name, room) in loaded.sorted(by: { $0.key < $1.key }) {
            guard room.clients == 0, let since = room.emptySince else { continue }
            if room.cells == 0, now - since >= policy.forgetAfter {
                actions.append(.forget(name))
                onDisk.remove(name)
            } else if room.cells > 0, room.settled, room.unloadable, now - since >= policy.unloadAfter {
                actions.append(.unload(name))
                onDisk.insert(name)
            } else {
                continue
            }
            loaded[name] = nil
        }
        creations = creations.filter { $0.value.contains { $0 > now - 60 } }
        return actions
    }

    /// The rooms in memory for `GET /rooms`: most clients first (then most cells, then by
    /// name), at most `limit`.
    func listing(limit: Int = 100) -> [(name: RoomName, room: Room)] {
        loaded.map { (name: $0.key, room: $0.value) }
            .sorted { ($0.room.clients, $0.room.cells, $1.name) > ($1.room.clients, $1.room.cells, $0.name) }
            .prefix(limit).map { $0 }
    }

    private mutating func admit(_ name: RoomName) {
        loaded[name]!.clients += 1
        loaded[name]!.emptySince = nil
    }
}
