import EventBus
import ForceLayout

/// What the simulation reports about itself, for `hello` and `stats`.
public struct LayoutStatus: Sendable, Equatable {
    public var parameters = Parameters.defaults
    public var tick = 0
    public var settled = true
    public var cells = 0
    public var version = 0
    public var tickMs = 0.0
    public var tickMsP99 = 0.0
    public var frameBytes = 0
    public var maxMove = 0.0
    public var totalMove = 0.0
    /// Ids of the pinned cells, for `hello` (pins before the replay buffer's reach).
    public var pinned: [CellID] = []

    public init() {}
}

/// Encoders for every server-to-client message but `frame` (see `FrameEncoder`).
public enum ServerMessages {
    public static let protocolVersion = 1

    static func writeParameters(_ parameters: Parameters, into writer: inout JSONWriter) {
        writer.raw("{\"stiffness\":")
        writer.number(parameters.stiffness)
        writer.raw(",\"charge\":")
        writer.number(parameters.charge)
        writer.raw(",\"cellSize\":")
        writer.number(parameters.cellSize)
        writer.raw(",\"threshold\":")
        writer.number(parameters.threshold)
        writer.raw(",\"tickRate\":")
        writer.number(parameters.tickRate)
        writer.raw(",\"theta\":")
        writer.number(parameters.theta)
        writer.raw(",\"collide\":")
        writer.bool(parameters.collide)
        writer.raw(",\"paused\":")
        writer.bool(parameters.paused)
        writer.raw("}")
    }

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

    public static func hello(client: String, clients: Int, status: LayoutStatus, limits: Limits,
                             events: [Envelope<LayoutEvent>]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 1024)
        writer.raw("{\"type\":\"hello\",\"protocol\":")
        writer.integer(protocolVersion)
        writer.raw(",\"client\":")
        writer.string(client)
        writer.raw(",\"clients\":")
        writer.integer(clients)
        writer.raw(",\"params\":")
        writeParameters(status.parameters, into: &writer)
        writer.raw(",\"limits\":{\"maxCells\":")
        writer.integer(limits.maxCells)
        writer.raw(",\"maxAddPerMessage\":")
        writer.integer(limits.maxAddPerMessage)
        writer.raw(",\"maxMessageBytes\":")
        writer.integer(limits.maxMessageBytes)
        writer.raw(",\"replayBuffer\":")
        writer.integer(limits.replayBuffer)
        writer.raw(",\"messagesPerSecond\":")
        writer.number(limits.messagesPerSecond)
        writer.raw(",\"messageBurst\":")
        writer.number(limits.messageBurst)
        writer.raw(",\"maxEventBacklog\":")
        writer.integer(limits.maxEventBacklog)
        writer.raw(",\"maxClients\":")
        writer.integer(limits.maxClients)
        writer.raw("},\"tick\":")
        writer.integer(status.tick)
        writer.raw(",\"settled\":")
        writer.bool(status.settled)
        writer.raw(",\"pinned\":")
        writer.integers(status.pinned)
        writer.raw(",\"events\":")
        writeEvents(events, into: &writer)
        writer.raw("}")
        return writer.bytes
    }

    public static func replay(_ envelopes: [Envelope<LayoutEvent>]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64 + envelopes.count * 64)
        writer.raw("{\"type\":\"replay\",\"events\":")
        writeEvents(envelopes, into: &writer)
        writer.raw("}")
        return writer.bytes
    }

    public static func stats(_ status: LayoutStatus, clients: Int, uptimeSeconds: Int) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256)
        writer.raw("{\"type\":\"stats\",\"cells\":")
        writer.integer(status.cells)
        writer.raw(",\"clients\":")
        writer.integer(clients)
        writer.raw(",\"tick\":")
        writer.integer(status.tick)
        writer.raw(",\"settled\":")
        writer.bool(status.settled)
        writer.raw(",\"tickMs\":")
        writer.number(rounded(status.tickMs, places: 3))
        writer.raw(",\"tickMsP99\":")
        writer.number(rounded(status.tickMsP99, places: 3))
        writer.raw(",\"tickRate\":")
        writer.number(status.parameters.tickRate)
        writer.raw(",\"frameBytes\":")
        writer.integer(status.frameBytes)
        writer.raw(",\"uptimeS\":")
        writer.integer(uptimeSeconds)
        writer.raw(",\"maxMove\":")
        writer.number(rounded(status.maxMove, places: 3))
        writer.raw(",\"totalMove\":")
        writer.number(rounded(status.totalMove, places: 3))
        writer.raw(",\"paused\":")
        writer.bool(status.parameters.paused)
        writer.raw(",\"v\":")
        writer.integer(status.version)
        writer.raw(",\"rssMB\":")
        writer.number(rounded(ProcessMemory.residentMB, places: 1))
        writer.raw("}")
        return writer.bytes
    }

    public static func error(_ error: ProtocolError) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128)
        writer.raw("{\"type\":\"error\",\"code\":")
        writer.string(error.code.rawValue)
        writer.raw(",\"message\":")
        writer.string(error.message)
        if let ref = error.ref {
            writer.raw(",\"ref\":")
            writer.string(ref)
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
