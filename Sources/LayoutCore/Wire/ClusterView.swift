import Foundation

/// What one server says of itself to the others, every second (`ClusterKeys.nodeSummary`):
/// its clients and the rooms it steps. The servers' summaries together are the cluster's
/// view: `/rooms` and `/stats` show it, and new rooms go where the fewest rooms are stepped.
package struct NodeSummary: Codable, Equatable, Sendable {
    package struct OwnedRoom: Codable, Equatable, Sendable {
        package var name: String
        /// On every server.
        var clients: Int
        var cells: Int
        var settled: Bool
        var tick: Int
        /// The room's access (nil from a server of an older build: listed as open).
        var access: AccessMode?

        package init(name: String, clients: Int, cells: Int, settled: Bool, tick: Int, access: AccessMode? = nil) {
            self.name = name
            self.clients = clients
            self.cells = cells
            self.settled = settled
            self.tick = tick
            self.access = access
        }
    }

    var node: String
    /// WebSocket clients of this server, in any room.
    var clients: Int
    var rooms: [OwnedRoom]
    var relayed: Int
    var uptimeSeconds: Int

    package var encoded: [UInt8] { Array((try? JSONEncoder().encode(self)) ?? Data()) }

    /// A summary as read from Redis, every figure within `WireBounds` and every name valid:
    /// whatever else is there was not written by a server, and is refused.
    package init(decoding bytes: [UInt8]) throws(WireMalformed) {
        guard bytes.count <= WireBounds.summaryBytes else { throw WireMalformed("a summary of \(bytes.count) bytes") }
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(bytes))
        } catch {
            throw WireMalformed("a summary that does not decode: \(String(describing: error).prefix(200))")
        }
        _ = try WireBounds.node(node)
        try WireBounds.check(clients, in: WireBounds.clients, "a summary's clients")
        try WireBounds.check(rooms.count, in: WireBounds.rooms, "a summary's rooms")
        try WireBounds.check(relayed, in: WireBounds.rooms, "a summary's relayed rooms")
        _ = try WireBounds.counter(uptimeSeconds, "a summary's uptime")
        var names = Set<String>()
        for room in rooms {
            guard RoomName(room.name) != nil else { throw WireMalformed("not a room name: \(room.name.prefix(40).debugDescription)") }
            guard names.insert(room.name).inserted else { throw WireMalformed("room \(room.name) listed twice") }
            try WireBounds.check(room.clients, in: WireBounds.clients, "room \(room.name)'s clients")
            try WireBounds.check(room.cells, in: WireBounds.cells, "room \(room.name)'s cells")
            _ = try WireBounds.counter(room.tick, "room \(room.name)'s tick")
        }
    }

    package init(node: String, clients: Int, rooms: [OwnedRoom], relayed: Int, uptimeSeconds: Int) {
        self.node = node
        self.clients = clients
        self.rooms = rooms
        self.relayed = relayed
        self.uptimeSeconds = uptimeSeconds
    }
}

/// The servers of the cluster as their last summaries say (no older than `LeasePolicy`'s
/// lease: a server silent that long is gone).
package struct ClusterView: Equatable, Sendable {
    var nodes: [NodeSummary] = []
    /// Rooms placed on a server lately that its summary may not show yet (`assume`): counted
    /// where new rooms go, never listed (the server that steps a room lists it).
    private(set) var assumed: [Assumed] = []

    package struct Assumed: Equatable, Sendable {
        let room: String
        let node: String
    }

    package init(nodes: [NodeSummary] = []) { self.nodes = nodes }

    /// The view from what Redis holds under the names `fl:nodes` gave: for each, its summary's
    /// bytes and their time to live (`PTTL`, in ms). A summary counts only if it is a server's:
    /// it decodes within bounds, names the server it is stored under, and expires within the
    /// lease period as every server's does (one with no expiry, or a longer one, was written by
    /// hand and would count forever). At most `WireBounds.nodes` servers, the first by name.
    /// Returns the view and why summaries were refused.
    package static func reported(_ entries: [(name: String, bytes: [UInt8]?, ttl: Int?)]) -> (ClusterView, refused: [String]) {
        var nodes: [NodeSummary] = [], refused: [String] = []
        for entry in entries.sorted(by: { $0.name < $1.name }) where nodes.count < WireBounds.nodes {
            guard let bytes = entry.bytes else { continue }  // expired since fl:nodes was read
            guard let ttl = entry.ttl, (1...LeasePolicy.milliseconds).contains(ttl) else {
                refused.append("the summary of \(entry.name.prefix(40).debugDescription) has no expiry within the lease period")
                continue
            }
            do {
                let summary = try NodeSummary(decoding: bytes)
                guard summary.node == entry.name else { throw WireMalformed("stored under \(entry.name) but names \(summary.node)") }
                nodes.append(summary)
            } catch {
                refused.append("the summary of \(entry.name.prefix(40).debugDescription): \(error)")
            }
        }
        return (ClusterView(nodes: nodes), refused)
    }

    /// Where a new room goes: the server stepping the fewest rooms, `me` among equals (no
    /// round trip), else the first by name. `me` when nothing is known yet.
    package func placement(for me: String) -> String {
        let counts = nodes.map { node in
            (node.node, node.rooms.count + assumed.filter { $0.node == node.node && !node.rooms.contains(named: $0.room) }.count)
        }
        let fewest = counts.map(\.1).min() ?? 0
        let candidates = counts.filter { $0.1 == fewest }.map(\.0).sorted()
        if candidates.isEmpty || candidates.contains(me) { return me }
        return candidates[0]
    }

    /// `room` is going to `node`: counted there at once, so rooms placed before the next
    /// summaries arrive do not all go to the same server.
    package mutating func assume(_ room: RoomName, at node: String) {
        guard !assumed.contains(where: { $0.room == room.description }) else { return }
        assumed.append(.init(room: room.description, node: node))
    }

    /// `room` was not placed after all (it had an owner).
    package mutating func forget(_ room: RoomName) {
        assumed.removeAll { $0.room == room.description }
    }

    /// Every room stepped in the cluster, once, with the server that steps it. Two servers
    /// report one room only for a moment (a server cut off from Redis still steps it for its
    /// own clients until it learns another took it over): the one further on is listed.
    var rooms: [(node: String, room: NodeSummary.OwnedRoom)] {
        var best: [String: (node: String, room: NodeSummary.OwnedRoom)] = [:]
        for node in nodes {
            for room in node.rooms {
                // Kept: the other entry if its tick is higher, or equal and its server first by name.
                if let other = best[room.name],
                   other.room.tick > room.tick || (other.room.tick == room.tick && other.node < node.node) { continue }
                best[room.name] = (node.node, room)
            }
        }
        return best.values.sorted { $0.room.name < $1.room.name }
    }

    /// The view with `summary` in place of what its server last said (this server's own, fresh).
    package func replacing(_ summary: NodeSummary) -> ClusterView {
        var view = self
        view.nodes.removeAll { $0.node == summary.node }
        view.nodes.append(summary)
        return view
    }

    /// Clients of every server together (saturating: each is bounded, but never trust a sum).
    var clients: Int { WireBounds.sum(nodes.map(\.clients)) }
}

private extension [NodeSummary.OwnedRoom] {
    func contains(named name: String) -> Bool { contains { $0.name == name } }
}
