import ForceLayout
import LayoutCore

/// Loading a room from its file without stalling the service thread: the handshake that wants
/// it is admitted at once to a room with no layout (`RoomRole.loading`), the file reader reads
/// and checks the file on its own thread, the service thread reserves its cells in the total
/// (`--max-total-cells`: idle rooms are unloaded to make room, `reserve`), the reader restores
/// the layout, and the service thread then puts the room in the pool and greets its waiting
/// clients. When the file is unusable it closes them with 1011 and remembers the verdict: until
/// the file changes, a handshake to that room is refused with 503 without reading it again
/// (`FileVerdicts`); when its cells do not fit, it closes them with 1013 (try again later).
extension RoomHost {
    /// What the reader found for a room it loaded.
    package enum LoadOutcome: Sendable {
        /// The file is read: its cells are to be reserved, then its layout made.
        case read(Room, SavedState?, stamp: FileStamp?)
        /// The room has its layout (`Room.installLocal`).
        case loaded(Room)
        /// Its file is unusable; the room is not served.
        case refused(Room, path: String, why: String, stamp: FileStamp?)
        /// The room left while its file was read: nothing was made.
        case abandoned
    }

    /// What the service thread is to do for the room's connections once a load ended.
    package enum LoadEnd {
        case greet(RoomName)
        /// The file is unusable (1011).
        case close(RoomName, why: String)
        /// Its cells do not fit under `--max-total-cells` now (1013).
        case tryLater(RoomName, why: String)
        case nothing
    }

    /// The registry said `.load(name)`: a room with no layout, and its file on the reader's queue
    /// (after any write of it under way); or 503 at once when the file was found unusable
    /// before and has not changed since.
    func startLoading(_ name: RoomName) -> Admission {
        guard let path = files.path(for: name) else {
            registry.failed(name)
            return .refused(status: 503, why: "room \(name): no state file (a bug: see the log)")
        }
        if let why = refusedFiles.refusal(of: path, stamp: FileStamp(path: path)) {
            registry.failed(name)
            return .refused(status: 503, why: "room \(name): its file is unchanged since it was refused: \(why)")
        }
        let room = Room(loadingName: name, replay: limits.replay, history: history(for: name), changed: changed)
        // The joiner that sets off the load makes the room if its file holds none after all (it
        // vanished, or holds a room its owner deleted): it is then that room's owner.
        let owner = LinkSecret.random()
        room.proposedAccess.withLock { $0 = RoomAccess(mode: defaultAccess, links: LinkDigests(ownerSecret: owner)) }
        rooms[name] = room
        let limits = limits, done = loads
        reader.submit(after: closing.removeValue(forKey: name)) {
            let (result, stamp) = StateFileReader.read(path, limits: limits)
            switch result {
            case .success(let saved):
                // Its history, unless the room was deleted; numbering goes on after it.
                if saved?.access.deleted == true {
                    room.history.remove()
                } else if let last = room.history.load() {
                    room.bus.skip(through: last)
                }
                done.post(.read(room, saved, stamp: stamp))
            case .failure(let failure):
                done.post(.refused(room, path: path, why: failure.description, stamp: stamp))
            }
        }
        logger.info("room \(name): loading its file")
        return .room(room, creator: owner)
    }

    /// A load ended (service thread): the room goes into the pool, or out of memory.
    package func finishLoad(_ outcome: LoadOutcome) -> LoadEnd {
        switch outcome {
        case .abandoned:
            return .nothing
        case .read(let room, let read, let stamp):
            guard rooms[room.name] === room else { return .nothing }  // left meanwhile
            // A room its owner deleted (a crash before it was forgotten, or a joiner in between)
            // is no room: a new one is made in its place, over its file.
            let saved = read?.access.deleted == true ? nil : read
            let cells = saved?.layout.cells.count ?? 0
            guard reserve(cells, for: room.name, now: Uptime.seconds()) else {
                _ = takeOut(room.name)
                registry.failed(room.name)
                let why = "room \(room.name): its \(cells) cells do not fit under --max-total-cells \(budget.limit) (\(budget.total) in memory, and no idle room can be unloaded to make room)"
                logger.error("\(why)")
                return .tryLater(room.name, why: "room \(room.name) does not fit in memory now: try again later")
            }
            let proposal = room.proposedAccess.withLock { $0 } ?? RoomAccess(mode: defaultAccess)
            let make = layoutMaker(room.name, path: files.path(for: room.name))(saved, stamp, proposal)
            let done = loads, budget = budget
            reader.submit(after: nil) {
                // Taken out before its layout was made, the room gave back none of its cells.
                guard room.installLocal(make) else {
                    budget.give(cells)
                    return done.post(.abandoned)
                }
                done.post(.loaded(room))
            }
            return .nothing
        case .loaded(let room):
            guard rooms[room.name] === room else { return .nothing }  // left meanwhile; unloading writes it
            pool.add(room)
            logger.info("room \(room.name) loaded (\(room.cellCount) cells; \(rooms.count) in memory)")
            return .greet(room.name)
        case .refused(let room, let path, let why, let stamp):
            logger.error("room \(room.name): \(why)")
            if let stamp { refusedFiles.refuse(path, stamp: stamp, why: why) }
            guard rooms[room.name] === room else { return .nothing }
            _ = takeOut(room.name)
            registry.failed(room.name)
            return .close(room.name, why: "room \(room.name) cannot be loaded (see the server's log)")
        }
    }

    /// What builds a room's layout from its saved state (nil: an empty room, with `access`) and
    /// the stamp of the file it was read from, on whichever thread runs it: its keeper writes to
    /// `path` (nil: a room without a file), and replaces only the file as read (none for a new
    /// room, or a deleted room's).
    func layoutMaker(_ name: RoomName, path: String?) -> @Sendable (SavedState?, FileStamp?, RoomAccess) -> @Sendable () -> RoomLayout {
        let limits = limits, budget = budget, empty = layoutParts(name, saved: nil), aside = files.asidePath(for: name)
        return { saved, stamp, access in
            let parts = empty.restoring(saved)
            return {
                let keeper = path.map { path in
                    StateKeeper(saver: StateSaver(StateFileDestination(path: path, aside: aside, known: stamp,
                                                                       maxID: saved?.layout.cells.lazy.map(\.id).max(),
                                                                       logger: parts.logger)),
                                ids: parts.ids, closed: saved.flatMap { $0.reservation == $0.layout.nextID ? $0.reservation : nil })
                }
                let state = LayoutState(simulation: parts.simulation(), limits: limits, budget: budget,
                                        settled: saved?.settled, catalog: saved?.catalog ?? CellCatalog(),
                                        access: saved?.access ?? access, ownership: Ownership(runs: saved?.owners ?? []))
                return RoomLayout(state: state, keeper: keeper)
            }
        }
    }
}

/// Rooms whose file the reader read, for the service thread.
package typealias RoomLoads = ServiceQueue<RoomHost.LoadOutcome>
