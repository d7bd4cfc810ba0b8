import LayoutCore

/// Which room an address names: the WebSocket at `/ws` (room `main`) or `/ws/NAME`, and the
/// page at `/` or `/r/NAME`. Paths arrive decoded (libwebsockets decodes `%xx` and removes
/// dot segments before any callback), so a name is checked exactly as written here.
package enum RoomAddress {
    static let socketPath = "/ws"
    package static let pagePath = "/r"

    /// The room of a WebSocket at `path`; nil for every other path (HTTP 404).
    package static func socket(_ path: String) -> RoomName? {
        if path == socketPath { return .main }
        guard path.hasPrefix(socketPath + "/") else { return nil }
        return RoomName(path.dropFirst(socketPath.count + 1))
    }

    /// What a path under `/r/` asks for.
    package enum Page: Equatable {
        /// `/r/NAME`: the page, for room NAME.
        case room(RoomName)
        /// `/r/FILE` that is no room name (`/r/main.js`): the file of `Public/`, so that the
        /// page's relative paths resolve at `/r/NAME`.
        case file(String)
        /// `/r` or `/r/`: nothing (404).
        case none
    }

    /// `rest` is what follows `/r` in the path (`/demo`, `/main.js`, `` or `/`).
    package static func page(_ rest: String) -> Page {
        guard rest.hasPrefix("/"), rest.count > 1 else { return .none }
        let tail = rest.dropFirst()
        if let name = RoomName(tail) { return .room(name) }
        return .file(String(tail))
    }
}
