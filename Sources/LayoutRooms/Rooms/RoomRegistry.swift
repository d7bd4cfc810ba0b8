import LayoutCore

/// Which rooms exist and where (in memory, or only in the state directory), and what to do
/// when a client wants one, leaves one, or time passes. Pure: the caller turns each returned
/// action into work (create a layout, load or save a room file, drop a room), so every
/// transition is tested without sockets, threads or files.
///
/// - `maxRooms` bounds the rooms in memory. At the bound a room nobody is in makes way
///   (`makeWay`): one with no cells is forgotten, one with a file is saved and unloaded (settled
///   ones first, then the longest empty), and only then one without a file, empty for
///   `evictAfter` seconds at least, is evicted (its cells are lost). With none to make way,
///   creating or loading one more is refused (503).
/// - One address may create at most `roomsPerMinute` new rooms in any 60 s (429), and may have
///   at most `maxRoomsPerAddress` rooms it created in memory (429); loading a room from disk or
///   joining one in memory is not creating.
/// - A room loaded must fit in the cells budget: idle settled rooms with a file are unloaded to
///   make room for it (`makeWay(freeing:)`), else it is refused.
/// - A room with no clients and no cells is forgotten `forgetAfter` seconds after it emptied.
/// - A room with no clients that has settled is saved and unloaded `unloadAfter` seconds after
///   its last client left (it stays on disk; the next client loads it again).
package struct RoomRegistry {
    struct Policy: Equatable {
        var maxRooms: Int
        var roomsPerMinute: Int
        var forgetAfter: Double = 60
        var unloadAfter: Double = 300
        var maxRoomsPerAddress: Int = .max
        /// Seconds a room without a file must have been empty before it is evicted to make way.
        var evictAfter: Double = 60
    }

    enum Refusal: Equatable {
        /// `maxRooms` rooms are in memory (HTTP 503).
        case full(Int)
        /// This address created `roomsPerMinute` rooms in the last minute (HTTP 429).
        case tooFast(Int)
        /// This address created `maxRoomsPerAddress` of the rooms in memory (HTTP 429).
        case tooMany(Int)
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
        /// No file to keep it in, and room is needed: drop it with its cells (`makeWay`).
        case evict(RoomName)
    }

    /// What the registry knows of a room in memory.
    struct Room: Equatable {
        var clients = 0
        var cells = 0
        var settled = true
        /// Whether it has a file to be unloaded into (else it stays in memory while it has cells).
        var unloadable = true
        /// Whether its cells count in the total (false: a cluster's room stepped elsewhere).
        var budgeted = true
        /// When its last client left (nil while it has clients).
        var emptySince: Double?
        /// The address that created it (nil: loaded from its file, or placed by the cluster).
        var creator: PeerAddress?
        /// Its owner deleted it: forgotten as soon as its last client has gone.
        var deleted = false
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
        let creating = !onDisk.contains(name)
        var recent = creations[address, default: []].filter { $0 > now - 60 }
        if creating {
            creations[address] = recent
            guard recent.count < policy.roomsPerMinute else { return .refuse(.tooFast(policy.roomsPerMinute)) }
            // (A share of all the rooms or more binds no sooner than `maxRooms`: that is 503.)
            guard policy.maxRoomsPerAddress >= policy.maxRooms || created(by: address) < policy.maxRoomsPerAddress else {
                return .refuse(.tooMany(policy.maxRoomsPerAddress))
            }
        }
        guard loaded.count < policy.maxRooms else { return .refuse(.full(policy.maxRooms)) }
        guard creating else {
            loaded[name] = Room()
            admit(name)
            return .load(name)
        }
        recent.append(now)
        creations[address] = recent
        loaded[name] = Room(creator: address)
        admit(name)
        return .create(name)
    }

    /// The rooms in memory that `address` created.
    func created(by address: PeerAddress) -> Int {
        loaded.values.reduce(0) { $0 + ($1.creator == address ? 1 : 0) }
    }

    /// `maxRooms` rooms are in memory: one nobody is in leaves to make way for another (it is
    /// no longer in memory once returned); nil: none can. Nothing is lost first: a room with no
    /// cells (forgotten), then one with a file (unloaded; settled ones first, then the longest
    /// empty); a room without a file only after `evictAfter` seconds empty, the longest first.
    mutating func makeWay(now: Double) -> SweepAction? {
        func rank(_ room: Room) -> Int? {
            guard room.clients == 0, let since = room.emptySince else { return nil }
            if room.cells == 0 { return 0 }
            if room.unloadable { return room.settled ? 1 : 2 }
            return now - since >= policy.evictAfter ? 3 : nil
        }
        let candidates = loaded.compactMap { name, room in rank(room).map { (name: name, rank: $0, since: room.emptySince!) } }
        guard let chosen = candidates.min(by: { ($0.rank, $0.since, $0.name) < ($1.rank, $1.since, $1.name) }) else {
            return nil
        }
        loaded[chosen.name] = nil
        switch chosen.rank {
        case 0:
            onDisk.remove(chosen.name)
            return .forget(chosen.name)
        case 1, 2:
            onDisk.insert(chosen.name)
            return .unload(chosen.name)
        default:
            return .evict(chosen.name)
        }
    }

    /// A room being loaded needs `cells` more than the budget has free: idle rooms (nobody in
    /// them, settled, with a file) are unloaded to free them, the longest empty first; they
    /// are no longer in memory once returned. Empty (and nothing changed) when they cannot
    /// free that many together.
    mutating func makeWay(freeing cells: Int) -> [SweepAction] {
        let idle = loaded.filter { $0.value.clients == 0 && $0.value.emptySince != nil && $0.value.settled
            && $0.value.unloadable && $0.value.budgeted && $0.value.cells > 0 }
            .sorted { ($0.value.emptySince!, $0.key) < ($1.value.emptySince!, $1.key) }
        var freed = 0
        var chosen: [RoomName] = []
        for (name, room) in idle where freed < cells {
            freed += room.cells
            chosen.append(name)
        }
        guard freed >= cells else { return [] }
        for name in chosen {
            loaded[name] = nil
            onDisk.insert(name)
        }
        return chosen.map { .unload($0) }
    }

    /// A room file appeared in the state directory that the registry did not know of (put
    /// there while the server runs): the room is loaded from it rather than created empty.
    mutating func found(_ name: RoomName) {
        onDisk.insert(name)
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
    mutating func update(_ name: RoomName, cells: Int, settled: Bool, unloadable: Bool = true, budgeted: Bool = true,
                         deleted: Bool = false) {
        guard var room = loaded[name] else { return }
        room.deleted = deleted
        room.cells = cells
        room.settled = settled
        room.unloadable = unloadable
        room.budgeted = budgeted
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
    package mutating func failed(_ name: RoomName) {
        loaded[name] = nil
    }

    /// The rooms to forget or unload now; they are no longer in memory once returned.
    mutating func sweep(now: Double) -> [SweepAction] {
        var actions: [SweepAction] = []
        for (name, room) in loaded.sorted(by: { $0.key < $1.key }) {
            guard room.clients == 0, let since = room.emptySince else { continue }
            if room.deleted || (room.cells == 0 && now - since >= policy.forgetAfter) {
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
    func listing(limit: Int = 100, where listed: (RoomName) -> Bool = { _ in true }) -> [(name: RoomName, room: Room)] {
        loaded.filter { listed($0.key) }.map { (name: $0.key, room: $0.value) }
            .sorted { ($0.room.clients, $0.room.cells, $1.name) > ($1.room.clients, $1.room.cells, $0.name) }
            .prefix(limit).map { $0 }
    }

    private mutating func admit(_ name: RoomName) {
        loaded[name]!.clients += 1
        loaded[name]!.emptySince = nil
    }
}
