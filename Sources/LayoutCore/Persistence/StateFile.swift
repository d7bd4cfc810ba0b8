import ForceLayout

/// A room's state file (`--state-dir`'s `NAME.json`, or `--state` for `main`): cells,
/// parameters, the next id, the id reservation and whether the layout rests, as JSON with
/// sorted keys (`StateFile+Reading`, `StateFile+Writing`). Written atomically by `StateFile+Files` in the server (temporary file, fsync, rename), so a crash leaves either the old or the new file.
///
/// Version 2 adds `reservation` (see `IDReservation`); version 1 files, which have none,
/// still load, with their `nextID` as the reservation. `settled` (added with rooms) is read
/// as false when absent. Version 3 adds cells' `label`, `color`, `group` and `radius` (each
/// only when set) and the layout's `links`; earlier files have none of them. Version 4 adds
/// cells' `key` and `attrs` and links' `attrs` (each only when set): a server that reads only
/// up to version 3 refuses such a file rather than load it and write it back without them.
/// Parameters are written by name (`Parameters.table`, a choice as its option's name) and read
/// whatever the version: one a file lacks takes its default, so `model` and `edgeLength`
/// (issue 23) needed no new version; a server from before them ignores them. Version 5 adds
/// the room's `access` (its mode and its links' digests, `RoomAccess`): a server of version 4
/// refuses such a file rather than open a private room to everyone; a file without it (every
/// earlier one) loads as an `open` room with no links. `owners` (issue 26) says who added which
/// cells, as the frames' runs `[client, firstId, lastId]`, only when some cell has an owner:
/// optional, and harmless to lose (a server before it ignores it, and its cells show as
/// restored), so it needed no new version; files without it load with no owners. Version 6
/// stores a link's `distance` only when its client gave one (a link without follows the room's
/// `edgeLength`): a server of version 5 refuses such a file rather than miss the distances; in
/// earlier files every link has one, and a distance of 30 (the default then) is read as none.
public enum StateFile {
    public static let format = "forcelayout-state"
    public static let version = 6
    static let readableVersions = 1...6
    /// No id or reservation beyond it: ids must stay exact in JavaScript numbers (2^53).
    static let largestID: CellID = 1 << 53

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// A state file's bytes (from a file at `path`, or a cluster's Redis key), read and checked
    /// as a whole: a layout the engine would refuse is an error here, not later.
    package static func decode(_ bytes: [UInt8], path: String) throws(Failure) -> SavedState {
        let state = try read(bytes, path: path)
        if let problem = validate(state) {
            throw Failure(description: "state file \(path): \(problem)")
        }
        do {
            _ = try Simulation(snapshot: state.layout)
        } catch {
            throw Failure(description: "state file \(path) holds an invalid layout: \(error)")
        }
        return state
    }

    static func validate(_ state: SavedState) -> String? {
        for (name, value) in [("nextID", state.layout.nextID), ("reservation", state.reservation)]
        where !(1...largestID).contains(value) {
            return "\(name) \(value) is outside [1, \(largestID)]"
        }
        for (id, data) in state.catalog.data {
            for (field, text, limit) in [("label", data.label, CellData.labelLimit), ("group", data.group, CellData.groupLimit)] {
                if let text, let problem = CellData.problem(text: text, limit: limit) {
                    return "cell \(id)'s \(field) must have \(problem)"
                }
            }
            if let color = data.color, CellData.color(color) != color {
                return "cell \(id)'s color \(Excerpt.quoted(color, limit: 16)) is not \"#rrggbb\" in lower case"
            }
            if let key = data.key, case .failure(let problem) = CellKey.make(key.json) {
                return "cell \(id)'s key must be \(problem.why)"
            }
        }
        if let problem = Ownership.problem(state.owners, largestID: largestID) { return problem }
        return validate(state.layout.parameters)
    }

    /// The first parameter outside its range, or a choice that names none of its options
    /// (`Parameters.table`, as for clients), if any.
    static func validate(_ parameters: Parameters) -> String? {
        for spec in Parameters.table {
            let value = spec.value(in: parameters)
            guard !spec.accepts(value) else { continue }
            switch value {
            case .number(let number): return "\(spec.name) \(number) is outside \(spec.range?.text ?? "its range")"
            case .choice(let name): return "\(spec.name) \(Excerpt.quoted(name, limit: 32)) is not one of \(spec.optionsText)"
            case .bool: continue  // either value is one a client may set
            }
        }
        return nil
    }
}
