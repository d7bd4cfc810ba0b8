/// What the directory files a session by.
package protocol DirectoryEntry: AnyObject {
    associatedtype Connection: Hashable
    var connection: Connection { get }
    var client: String { get }
    var roomName: RoomName { get }
}

/// Every WebSocket session of the server, found by its connection, by its client id (a room's
/// owner in a cluster answers a client by id) and by room (a room that published wakes its
/// connections only). One insert and one remove keep the three in step: no index is kept by hand.
package struct SessionDirectory<Entry: DirectoryEntry> {
    package init() {}

    private var byConnection: [Entry.Connection: Entry] = [:]
    private var byClient: [String: Entry] = [:]
    private var byRoom: [RoomName: [Entry.Connection: Entry]] = [:]

    package var count: Int { byConnection.count }
    package var isEmpty: Bool { byConnection.isEmpty }
    /// Every session, in no particular order.
    package var all: Dictionary<Entry.Connection, Entry>.Values { byConnection.values }
    /// The rooms with a session here, each with its sessions.
    package var rooms: [RoomName: [Entry.Connection: Entry]] { byRoom }

    package subscript(connection: Entry.Connection) -> Entry? { byConnection[connection] }

    package func session(of client: String) -> Entry? { byClient[client] }

    /// The sessions in room `name`, in no particular order.
    package func members(of name: RoomName) -> [Entry] { byRoom[name].map { Array($0.values) } ?? [] }

    /// Files `entry` under its connection, client and room; a connection or client already
    /// filed is a programming error.
    package mutating func insert(_ entry: Entry) {
        precondition(byConnection[entry.connection] == nil && byClient[entry.client] == nil,
                     "a session is filed once")
        byConnection[entry.connection] = entry
        byClient[entry.client] = entry
        byRoom[entry.roomName, default: [:]][entry.connection] = entry
    }

    /// Takes the session of `connection` out of every index; nil if there is none.
    @discardableResult
    package mutating func remove(_ connection: Entry.Connection) -> Entry? {
        guard let entry = byConnection.removeValue(forKey: connection) else { return nil }
        byClient[entry.client] = nil
        byRoom[entry.roomName]?[connection] = nil
        if byRoom[entry.roomName]?.isEmpty == true { byRoom[entry.roomName] = nil }
        return entry
    }
}
