import ForceLayout

/// Where one client points (`point` message; the `pointer` message everyone in the room gets):
/// a cell, or nothing (`id` nil: it stopped pointing, left, or its cell was removed).
public struct Pointer: Equatable, Sendable {
    public var client: String
    /// The display name the person chose, if any.
    public var name: String?
    public var id: CellID?

    public init(client: String, name: String? = nil, id: CellID?) {
        self.client = client
        self.name = name
        self.id = id
    }

    /// The same client pointing at nothing (its name dropped with its pointer).
    var ended: Pointer { Pointer(client: client, id: nil) }
}

/// The room's pointers: at most one a client, each at a cell that exists. Ephemeral: not an
/// event, not in the replay history, not in the state file. Pure: each transition returns the
/// `pointer` messages to send (an ended pointer has `id` nil), empty when nothing changed.
/// The room's owner (the server that steps it) applies `point`, `leave` and `keep`; a relay
/// mirrors the owner's messages with `mirror` (and a whole list with `replace`).
public struct Pointers: Equatable, Sendable {
    private var byClient: [String: Pointer] = [:]
    /// Clients that left lately, oldest first: a `point` of theirs still on its way when they
    /// left (queued for the room's turn, or in a relay's request list) is ignored rather than
    /// left pointing for good. Client ids are never reused, so a few hundred cover the moments
    /// such a message can lag behind its client's leaving.
    private var departed: [String] = []
    static let departedKept = 256

    public init() {}

    /// Every pointer now, by client id (a late joiner's `hello.pointers`).
    public var current: [Pointer] { byClient.values.sorted { $0.client < $1.client } }

    public var isEmpty: Bool { byClient.isEmpty }

    /// `pointer.client` points at `pointer.id` (nil: stops pointing). The caller checked that
    /// the cell exists. Nothing to send when it pointed there under that name already, or
    /// stops pointing when it did not point.
    public mutating func point(_ pointer: Pointer) -> [Pointer] {
        guard !departed.contains(pointer.client) else { return [] }
        return set(pointer)
    }

    private mutating func set(_ pointer: Pointer) -> [Pointer] {
        guard pointer.id != nil else { return remove(pointer.client) }
        guard byClient[pointer.client] != pointer else { return [] }
        byClient[pointer.client] = pointer
        return [pointer]
    }

    /// The client left the room: its pointer ends, and it points no more.
    public mutating func leave(_ client: String) -> [Pointer] {
        if !departed.contains(client) {
            departed.append(client)
            if departed.count > Self.departedKept { departed.removeFirst(departed.count - Self.departedKept) }
        }
        return remove(client)
    }

    private mutating func remove(_ client: String) -> [Pointer] {
        guard let pointer = byClient.removeValue(forKey: client) else { return [] }
        return [pointer.ended]
    }

    /// Pointers at cells that no longer exist end (cells were removed, the room cleared).
    public mutating func keep(cells exists: (CellID) -> Bool) -> [Pointer] {
        let gone = current.filter { !exists($0.id!) }
        for pointer in gone { byClient[pointer.client] = nil }
        return gone.map(\.ended)
    }

    /// A relay takes a `pointer` message of the room's owner as it is.
    public mutating func mirror(_ pointer: Pointer) -> [Pointer] { set(pointer) }

    /// The whole set becomes `pointers` (a relay catching up, a new owner after a failover):
    /// what ended and what is new or moved, to send.
    public mutating func replace(with pointers: [Pointer]) -> [Pointer] {
        var sent: [Pointer] = []
        let wanted = Dictionary(pointers.filter { $0.id != nil }.map { ($0.client, $0) }) { _, last in last }
        for pointer in current where wanted[pointer.client] == nil { sent += remove(pointer.client) }
        for client in wanted.keys.sorted() { sent += set(wanted[client]!) }
        return sent
    }
}

extension Pointer {
    /// A display name is at most this many characters (code points) after trimming.
    public static let nameLimit = 32

    package struct NameProblem: Error, Equatable {
        package let why: String
    }

    /// `text` trimmed of white space at both ends, if it is a display name: 1 to `nameLimit`
    /// code points (not Characters: one can be kilobytes of combining marks), no control
    /// characters.
    package static func name(_ text: String) -> Result<String, NameProblem> {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else {
            return .failure(NameProblem(why: "1 to \(nameLimit) characters, not blank"))
        }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        let trimmed = String(scalars[first...last])
        if let problem = CellData.problem(text: trimmed, limit: nameLimit) {
            return .failure(NameProblem(why: problem))
        }
        return .success(trimmed)
    }
}
