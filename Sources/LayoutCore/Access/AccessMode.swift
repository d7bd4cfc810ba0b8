/// Who may come into a room without a link, and as what (`RoomAccess`).
public enum AccessMode: String, CaseIterable, Sendable, Codable {
    /// Anyone is an editor (every room before access existed).
    case open
    /// Anyone may watch; only holders of the edit link (or the owner's) change it.
    case view
    /// Only link holders get in at all; it is not listed in `/rooms` and not exported without one.
    case `private`

    /// Its names as a list for error messages and help (`"open", "view", "private"`).
    package static let namesText = allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
}

/// What a connection may do in its room, decided at its handshake from the room's access and
/// the link it came with (`RoomAccess.admit`).
public enum Role: String, CaseIterable, Comparable, Sendable {
    /// Receives everything (hello, frames, events, data) and changes nothing.
    case viewer
    /// Everything a client can do to the layout.
    case editor
    /// An editor who also changes the room's access and rotates its links.
    case owner

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .editor: 1
        case .owner: 2
        }
    }

    public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }
}

/// The three links of a room: each opens it as one role whatever its access (`view` opens an
/// `open` room as an editor, like no link at all).
public enum LinkKind: String, CaseIterable, Sendable {
    case owner, edit, view

    /// The role the link gives in a room of `mode`.
    package func role(in mode: AccessMode) -> Role {
        switch self {
        case .owner: .owner
        case .edit: .editor
        case .view: mode == .open ? .editor : .viewer
        }
    }
}
