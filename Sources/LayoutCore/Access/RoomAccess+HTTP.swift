/// What a room's access means over HTTP: who may export it (`GET /export/NAME.json|.gexf|.svg`, with
/// `Authorization: Bearer SECRET`) and whether `GET /rooms` lists it.
extension RoomAccess {
    package enum ExportVerdict: Equatable, Sendable {
        case allowed
        /// A private room: to this request there is no such room (404).
        case notFound
        /// A view room without a link that opens it (403).
        case forbidden
    }

    /// An open room is exported to anyone; a view or private one to the holder of one of its
    /// links (the view link or better) or of the admin token.
    package func exportVerdict(_ credential: Credential) -> ExportVerdict {
        if deleted { return .notFound }
        if mode == .open { return .allowed }
        switch credential {
        case .admin: return .allowed
        case .key(let secret) where links?.kind(of: secret.digest) != nil: return .allowed
        default: return mode == .private ? .notFound : .forbidden
        }
    }

    /// Whether `GET /rooms` names the room: open and view rooms to anyone, private ones to the
    /// admin alone.
    package func isListed(to credential: Credential) -> Bool {
        !deleted && (mode != .private || credential == .admin)
    }
}
