import EventBus
import ForceLayout

/// What the simulation reports about itself, for `hello` and `stats`.
public struct LayoutStatus: Sendable, Equatable, Codable {
    public var parameters = Parameters.defaults
    public var tick = 0
    public var settled = true
    public var cells = 0
    public var version = 0
    public var tickMs = 0.0
    public var tickMsP99 = 0.0
    /// Steps a second over the last second while the layout steps (several a frame), else 0;
    /// optional, so a cluster's servers of an older build read it.
    public var stepsPerSecond: Double?
    public var frameBytes = 0
    public var maxMove = 0.0
    public var totalMove = 0.0
    /// Ids of the pinned cells, for `hello` (pins before the replay buffer's reach).
    public var pinned: [CellID] = []
    /// True while the room's state cannot be written (its `unsaved` event), for `hello` and
    /// `stats`; nil otherwise (optional, so a cluster's servers of an older build read it).
    public var unsaved: Bool?
    /// The physics moving the cells now (`LayoutModel`: "cells" or "graph", what `model`
    /// comes to with or without links); nil from a cluster server of an older build.
    public var physics: String?
    /// True while a multilevel layout unfolds (the graph model), nil otherwise.
    public var unfolding: Bool?
    /// What the room's history holds (`HistoryLog.bytes`), and the milliseconds its stepping
    /// thread has spent writing it since the room was loaded; nil when no history is kept
    /// (or from a cluster server of an older build).
    public var historyBytes: Int?
    public var historyMs: Double?

    public init() {}
}

/// Encoders for every server-to-client message but `frame` (see `FrameEncoder`).
public enum ServerMessages {
    public static let protocolVersion = 1

    static func writeEvent(_ envelope: Envelope<LayoutEvent>, into writer: inout JSONWriter) {
        writer.raw("{\"type\":\"event\",\"seq\":")
        writer.integer(envelope.seq)
        writer.raw(envelope.event.encodedTail)
    }

    static func writeEvents(_ envelopes: [Envelope<LayoutEvent>], into writer: inout JSONWriter) {
        writer.array(envelopes) { writeEvent($1, into: &$0) }
    }

    public static func event(_ envelope: Envelope<LayoutEvent>) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 32 + envelope.event.encodedTail.count)
        writeEvent(envelope, into: &writer)
        return writer.bytes
    }

    /// What `stats` says of the whole server, beside its room's figures.
    package struct ServerFigures: Sendable {
        /// WebSocket clients in every room.
        var clients: Int
        /// TCP connections open, WebSockets or not.
        var connections: Int
        /// Rooms in memory, and the cells they hold together.
        var rooms: Int
        var cells: Int
        var uptimeSeconds: Int
        /// The process's resident memory (`ProcessMemory`, read by the server).
        var residentMB: Double

        package init(clients: Int, connections: Int, rooms: Int, cells: Int, uptimeSeconds: Int, residentMB: Double) {
            self.clients = clients
            self.connections = connections
            self.rooms = rooms
            self.cells = cells
            self.uptimeSeconds = uptimeSeconds
            self.residentMB = residentMB
        }
    }

    /// `{"maxCells":100000,…}`: every limit of `Limits.table`, in its order.
    static func writeLimits(_ limits: Limits, into writer: inout JSONWriter) {
        writer.raw("{")
        for (index, spec) in Limits.table.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(spec.key)
            writer.raw(":")
            if spec.isCount { writer.integer(Int(spec.value(in: limits))) } else { writer.number(spec.value(in: limits)) }
        }
        writer.raw("}")
    }

    /// `clients`: of `room`; `standing`: the connection's role and the room's access.
    package static func hello(client: String, room: RoomName, clients: Int, standing: Standing, status: LayoutStatus,
                              limits: Limits, events: [Envelope<LayoutEvent>], pointers: [Pointer] = []) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 1024 + paramSpecs.count)
        writer.raw("{\"type\":\"hello\",\"protocol\":")
        writer.integer(protocolVersion)
        writer.member("client", client)
        writer.member("room", room.description)
        writer.member("clients", clients)
        writeStanding(standing, into: &writer)
        writer.raw(",\"params\":")
        writeParameters(status.parameters, into: &writer)
        writer.raw(",\"paramSpecs\":")
        writer.raw(paramSpecs)
        writer.raw(",\"limits\":")
        writeLimits(limits, into: &writer)
        writer.raw(",\"tick\":")
        writer.integer(status.tick)
        writer.member("settled", status.settled)
        if status.unsaved == true { writer.member("unsaved", true) }
        if let physics = status.physics { writer.member("physics", physics) }
        if status.unfolding == true { writer.member("unfolding", true) }
        writer.raw(",\"pinned\":")
        writer.integers(status.pinned)
        writer.raw(",\"events\":")
        writeEvents(events, into: &writer)
        if !pointers.isEmpty {
            writer.raw(",\"pointers\":")
            writer.array(pointers) { writePointer($1, into: &$0) }
        }
        writer.raw("}")
        return writer.bytes
    }

    /// `{"type":"pointer","client":"c3","name":"Ana","id":5}`: where a client of the room
    /// points (`id` null: nowhere now; `name` only when it gave one).
    public static func pointer(_ pointer: Pointer) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 96)
        writePointer(pointer, into: &writer)
        return writer.bytes
    }

    private static func writePointer(_ pointer: Pointer, into writer: inout JSONWriter) {
        writer.raw("{\"type\":\"pointer\",\"client\":")
        writer.string(pointer.client)
        if let name = pointer.name { writer.member("name", name) }
        writer.raw(",\"id\":")
        if let id = pointer.id { writer.integer(id) } else { writer.raw("null") }
        writer.raw("}")
    }

    public static func replay(_ envelopes: [Envelope<LayoutEvent>]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64 + envelopes.count * 64)
        writer.raw("{\"type\":\"replay\",\"events\":")
        writeEvents(envelopes, into: &writer)
        writer.raw("}")
        return writer.bytes
    }

    /// `status` and `clients` are `room`'s; `server` the whole server's.
    /// `cluster`: this server's name and the cluster's view, in a cluster.
    package static func stats(_ status: LayoutStatus, room: RoomName, clients: Int, server: ServerFigures,
                      cluster: (node: String, view: ClusterView)? = nil) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 320)
        writer.raw("{\"type\":\"stats\",\"room\":")
        writer.string(room.description)
        writer.member("cells", status.cells)
        writer.member("clients", clients)
        writer.member("totalClients", server.clients)
        writer.member("rooms", server.rooms)
        writer.member("totalCells", server.cells)
        writer.member("connections", server.connections)
        writer.member("tick", status.tick)
        writer.member("settled", status.settled)
        writer.member("tickMs", rounded(status.tickMs, places: 3))
        writer.member("tickMsP99", rounded(status.tickMsP99, places: 3))
        writer.member("tickRate", status.parameters.tickRate)
        writer.member("stepsPerSecond", rounded(status.stepsPerSecond ?? 0, places: 1))
        writer.member("frameBytes", status.frameBytes)
        writer.member("uptimeS", server.uptimeSeconds)
        writer.member("maxMove", rounded(status.maxMove, places: 3))
        writer.member("totalMove", rounded(status.totalMove, places: 3))
        writer.member("paused", status.parameters.paused)
        if status.unsaved == true { writer.member("unsaved", true) }
        if let physics = status.physics { writer.member("physics", physics) }
        if status.unfolding == true { writer.member("unfolding", true) }
        if let bytes = status.historyBytes { writer.member("historyBytes", bytes) }
        if let milliseconds = status.historyMs { writer.member("historyMs", rounded(milliseconds, places: 3)) }
        writer.member("v", status.version)
        writer.member("rssMB", rounded(server.residentMB, places: 1))
        if let cluster { writeCluster(node: cluster.node, view: cluster.view, into: &writer) }
        writer.raw("}")
        return writer.bytes
    }

    /// The `stats` members of a server in a cluster: its name, and each server's figures
    /// and the cluster's totals as the cluster's view has them.
    private static func writeCluster(node: String, view: ClusterView, into writer: inout JSONWriter) {
        writer.member("node", node)
        writer.raw(",\"cluster\":{\"nodes\":")
        writer.array(view.nodes.sorted { $0.node < $1.node }) { writer, node in
            writer.raw("{\"node\":")
            writer.string(node.node)
            writer.member("clients", node.clients)
            writer.member("rooms", node.rooms.count)
            writer.member("relayed", node.relayed)
            writer.member("uptimeS", node.uptimeSeconds)
            writer.raw("}")
        }
        writer.member("clients", view.clients)
        writer.member("rooms", view.rooms.count)
        writer.raw("}")
    }

    /// `GET /rooms` in a cluster: every room stepped anywhere, most clients first, at most 100.
    /// `listed`: whether a room of this access is listed (private ones to the admin alone).
    package static func rooms(cluster view: ClusterView, listed: (AccessMode) -> Bool) -> [UInt8] {
        let rooms = view.rooms.filter { listed($0.room.access ?? .open) }.sorted {
            ($0.room.clients, $0.room.cells, $1.room.name) > ($1.room.clients, $1.room.cells, $0.room.name)
        }.prefix(100)
        var writer = JSONWriter(reservingCapacity: 16 + rooms.count * 96)
        writer.raw("{\"rooms\":")
        writer.array(Array(rooms)) { writer, entry in
            writer.raw("{\"name\":")
            writer.string(entry.room.name)
            writer.member("clients", entry.room.clients)
            writer.member("cells", entry.room.cells)
            writer.member("settled", entry.room.settled)
            writer.member("tick", entry.room.tick)
            writer.member("access", (entry.room.access ?? .open).rawValue)
            writer.member("node", entry.node)
            writer.raw("}")
        }
        writer.raw("}")
        return writer.bytes
    }

    /// The body of `GET /rooms`: each room's name, clients, cells, whether it rests, tick, access
    /// and what its history holds.
    package static func rooms(_ rooms: [(name: RoomName, clients: Int, status: LayoutStatus, access: AccessMode)]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 16 + rooms.count * 80)
        writer.raw("{\"rooms\":")
        writer.array(rooms) { writer, room in
            writer.raw("{\"name\":")
            writer.string(room.name.description)
            writer.member("clients", room.clients)
            writer.member("cells", room.status.cells)
            writer.member("settled", room.status.settled)
            writer.member("tick", room.status.tick)
            writer.member("access", room.access.rawValue)
            if let bytes = room.status.historyBytes { writer.member("historyBytes", bytes) }
            writer.raw("}")
        }
        writer.raw("}")
        return writer.bytes
    }

    /// The server is draining (docs/protocol.md, `reconnect`): connect again now, and this
    /// connection is closed with 1012 in `closesInMs` ms if still open.
    package static func reconnect(closesInMs: Int) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 48)
        writer.raw("{\"type\":\"reconnect\",\"closesInMs\":")
        writer.integer(closesInMs)
        writer.raw("}")
        return writer.bytes
    }

    public static func error(_ error: ProtocolError) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128)
        writer.raw("{\"type\":\"error\",\"code\":")
        writer.string(error.code.rawValue)
        writer.member("message", error.message)
        if let ref = error.ref {
            writer.member("ref", ref)
        }
        writer.raw("}")
        return writer.bytes
    }

    private static func rounded(_ value: Double, places: Int) -> Double {
        guard value.isFinite else { return 0 }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
