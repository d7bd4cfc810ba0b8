import Foundation

/// What one server says of itself to the others, every second (`ClusterKeys.nodeSummary`):
/// its clients and the rooms it steps. The servers' summaries together are the cluster's
/// view: `/rooms` and `/stats` show it, and new rooms go where the fewest rooms are stepped.
struct NodeSummary: Codable, Equatable, Sendable {
    struct OwnedRoom: Codable, Equatable, Sendable {
        var name: String
        /// On every server.
        var clients: Int
        var cells: Int
        var settled: Bool
        var tick: Int
    }

    var node: String
    /// WebSocket clients of this server, in any room.
    var clients: Int
    var rooms: [OwnedRoom]
    var relayed: Int
    var uptimeSeconds: Int

    var encoded: [UInt8] { Array((try? JSONEncoder().encode(self)) ?? Data()) }

    static func decode(_ bytes: [UInt8]) -> NodeSummary? { try? JSONDecoder().decode(Self.self, from: Data(bytes)) }
}

/// The servers of the cluster as their last summaries say (no older than `LeasePolicy`'s
/// lease: a server silent that long is gone).
struct ClusterView: Equatable, Sendable {
    var nodes: [NodeSummary] = []

    /// Where a new room goes: the server stepping the fewest rooms, `me` among equals (no
    /// round trip), else the first by name. `me` when nothing is known yet.
    func placement(for me: String) -> String {
        let fewest = nodes.map(\.rooms.count).min() ?? 0
        let candidates = nodes.filter { $0.rooms.count == fewest }.map(\.node).sorted()
        if candidates.isEmpty || candidates.contains(me) { return me }
        return candidates[0]
    }

    /// `room` is going to `node`: counted there at once, so rooms placed before the next
    /// summaries arrive do not all go to the same server.
    mutating func assume(_ room: RoomName, at node: String) {
        guard let index = nodes.firstIndex(where: { $0.node == node }),
              !nodes[index].rooms.contains(where: { $0.name == room.description }) else { return }
        nodes[index].rooms.append(.init(name: room.description, clients: 0, cells: 0, settled: true, tick: 0))
    }

    /// Every room stepped in the cluster, with its server.
    var rooms: [(node: String, room: NodeSummary.OwnedRoom)] {
        nodes.flatMap { node in node.rooms.map { (node.node, $0) } }
    }
}
