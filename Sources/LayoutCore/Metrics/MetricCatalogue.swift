/// Every metric the server exposes at `GET /metrics`, once: its Prometheus name (the label
/// its swift-metrics handle is made with), what it counts (its `# HELP`), and for a histogram
/// its buckets. Names follow Prometheus's conventions: `forcelayout_` then what is counted,
/// its base unit (`_seconds`, `_bytes`) and `_total` for a counter; `process_` as every
/// client library names those.
package enum MetricCatalogue: String, CaseIterable, Sendable {
    // Connections and rooms (gauges, read when scraped)
    case connections = "forcelayout_connections"
    case websockets = "forcelayout_websockets"
    case rooms = "forcelayout_rooms"
    case cells = "forcelayout_cells"
    case links = "forcelayout_links"
    case queuedMessages = "forcelayout_queued_messages"
    case queuedBytes = "forcelayout_queued_bytes"
    case draining = "forcelayout_draining"
    case buildInfo = "forcelayout_build_info"
    case startTime = "process_start_time_seconds"
    case residentMemory = "process_resident_memory_bytes"

    // What clients sent and were sent (counters)
    case messagesReceived = "forcelayout_messages_received_total"
    case messagesRefused = "forcelayout_messages_refused_total"
    case messagesSent = "forcelayout_messages_sent_total"
    case framesSent = "forcelayout_frames_sent_total"
    case sentBytes = "forcelayout_sent_bytes_total"
    case framesSkipped = "forcelayout_frames_skipped_total"
    case closes = "forcelayout_closes_total"
    case handshakesRefused = "forcelayout_handshakes_refused_total"
    case connectionsRefused = "forcelayout_connections_refused_total"

    // Stepping and keeping rooms
    case stepSeconds = "forcelayout_step_seconds"
    case encodeSeconds = "forcelayout_encode_seconds"
    case stateSaves = "forcelayout_state_saves_total"
    case stateSaveFailures = "forcelayout_state_save_failures_total"

    // A cluster
    case redisRoundTrip = "forcelayout_redis_round_trip_seconds"
    case redisReconnects = "forcelayout_redis_reconnects_total"
    case leases = "forcelayout_cluster_leases"
    case relays = "forcelayout_cluster_relays"
    case failovers = "forcelayout_cluster_failovers_total"
    case handOffs = "forcelayout_cluster_hand_offs_total"

    package var help: String {
        switch self {
        case .connections: "Connections open, HTTP and WebSocket."
        case .websockets: "WebSockets open, by subprotocol."
        case .rooms: "Rooms in memory, by what their layout does (moving, settled, paused)."
        case .cells: "Cells in the rooms in memory (a cluster's relayed rooms count where they are stepped)."
        case .links: "Links in the rooms this server steps."
        case .queuedMessages: "Messages waiting in connections' queues."
        case .queuedBytes: "Bytes waiting in connections' queues."
        case .draining: "1 while the server drains (after SIGTERM or SIGINT), else 0."
        case .buildInfo: "Always 1; its labels say the version and the build."
        case .startTime: "When the process started, in seconds since the Unix epoch."
        case .residentMemory: "Resident memory of the process, in bytes."
        case .messagesReceived: "Messages received from clients, by type (invalid: not a message the server reads)."
        case .messagesRefused: "Client messages refused, by error code."
        case .messagesSent: "WebSocket messages sent, by form (text, binary)."
        case .framesSent: "Layout frames sent, by form (text, binary)."
        case .sentBytes: "Bytes of WebSocket messages sent, by form (text, binary)."
        case .framesSkipped: "Layout frames a slow reader never got (a newer one went instead)."
        case .closes: "WebSockets closed, by close status (1006: ended without a close frame)."
        case .handshakesRefused: "WebSocket handshakes refused, by HTTP status."
        case .connectionsRefused: "Connections refused as they were accepted (at a connection limit: the server's, an address's or the descriptors')."
        case .stepSeconds: "Time one step of a room's layout took."
        case .encodeSeconds: "Time encoding and publishing one frame of a room took."
        case .stateSaves: "Rooms' states written (to their files, or to Redis in a cluster)."
        case .stateSaveFailures: "Rooms' states that could not be written."
        case .redisRoundTrip: "Time a pipelined batch of Redis commands took to be answered."
        case .redisReconnects: "Connections to Redis made again after one was lost."
        case .leases: "Rooms this server steps in the cluster (leases held)."
        case .relays: "Rooms this server relays from the server that steps them."
        case .failovers: "Rooms this server took over from a server that held them."
        case .handOffs: "Rooms this server handed to another while draining."
        }
    }

    /// A histogram's buckets in seconds: steps and frames from half a millisecond (a small
    /// room) to a second (100k cells on a busy machine); Redis from a tenth of a millisecond.
    package var buckets: [Double]? {
        switch self {
        case .stepSeconds, .encodeSeconds:
            [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]
        case .redisRoundTrip:
            [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]
        default:
            nil
        }
    }
}
