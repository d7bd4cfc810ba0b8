import Dispatch
import EventBus
import ForceLayout
import LayoutCore
import LayoutRooms
import Logging
import Synchronization

/// A cluster room's history in Redis (`ClusterKeys.history`, a stream): each record its owner
/// makes is one entry (XADD with an explicit ID, `HistoryStreamID`: its time, never below the
/// last), framed as a history file frames it, so a server taking the room over reads it back
/// (`load`, before the room's first turn there) and the relays read it for their clients'
/// `history` and `moment` (`RelayedHistory`). When the room's log drops its oldest segments,
/// the stream is trimmed to the oldest kept checkpoint (XTRIM MINID).
///
/// Records are encoded on a queue of the stream's own and go out through the cluster's history
/// connection (`ClusterNode.historyRedis`), fenced by the room's lease as the replicator's
/// batches are: neither a room's turn nor the service thread waits for Redis. What waits for
/// Redis is bounded (`HistoryStreamWriter.maxQueuedBytes`): past it, records are dropped
/// (logged) until the next checkpoint, which starts a segment readable on its own.
final class RedisHistoryStream: HistorySink {
    let keys: ClusterKeys
    private let node: String
    private let redis: RedisCommands
    private let logger: Logger
    private let queue = DispatchQueue(label: "forcelayout.history-stream", qos: .utility)
    /// Batches sent and not answered yet (`flush` waits for them).
    private let writes = DispatchGroup()
    private let state = Mutex(HistoryStreamWriter())

    /// Entries read per XRANGE.
    static let chunk = 256

    init(room: RoomName, node: String, redis: RedisCommands, logger: Logger) {
        keys = ClusterKeys(room)
        self.node = node
        self.redis = redis
        self.logger = logger
    }

    func start(_ checkpoint: Checkpoint, dropped: Int) {
        queue.async { [self] in
            let record = HistoryFileFormat.checkpoint(checkpoint)
            let ids = checkpoint.state.layout.cells.map(\.id)
            let decision = state.withLock { $0.checkpoint(bytes: record.count, at: checkpoint.at, ids: ids, dropped: dropped) }
            switch decision {
            case .write(let id, let minimum):
                submit([add(id, record)] + (minimum.map { [trim(to: $0)] } ?? []), bytes: record.count)
            case .drop(let say, let minimum):
                if say { overflowed() }
                // What the log dropped goes from the stream all the same.
                if let minimum { submit([trim(to: minimum)], bytes: 0) }
            }
        }
    }

    func append(_ envelope: Envelope<LayoutEvent>) {
        queue.async { [self] in
            let record = HistoryFileFormat.event(envelope)
            write(record, state.withLock { $0.record(bytes: record.count, at: envelope.event.at) })
        }
    }

    func append(_ keyframe: Keyframe) {
        queue.async { [self] in
            let (record, decision) = state.withLock { state in
                let withIDs = state.carries(keyframe.ids)
                let record = HistoryFileFormat.keyframe(keyframe, withIDs: withIDs)
                return (record, state.record(bytes: record.count, at: keyframe.at, ids: withIDs ? keyframe.ids : nil))
            }
            write(record, decision)
        }
    }

    /// The stream read from its start, in chunks (on the caller's thread: a server taking the
    /// room over, before its first turn), within `bounds`; numbering of the entries goes on
    /// after its last. What the bounds drop is trimmed from the stream. nil: none, or it
    /// cannot be read (logged).
    func load(bounds: HistoryBounds) -> HistoryLog? {
        var reading = HistoryStreamLog(bounds: bounds)
        var trim: HistoryStreamID?
        while true {
            let start = reading.last?.after ?? "-"
            let result = redis.call([RedisCommand.words("XRANGE", keys.history, start, "+", "COUNT", String(Self.chunk))])
            guard case .success(let replies) = result, let reply = replies.first, let chunk = HistoryStreamChunk(reply) else {
                let why = switch result {
                case .success(let replies): replies.first?.errorMessage ?? "not a stream"
                case .failure(let failure): failure.description
                }
                logger.error("room \(keys.room): its history in Redis could not be read (\(why)); it goes on from what was read")
                break
            }
            if let minimum = reading.apply(chunk) { trim = minimum }
            if chunk.count < Self.chunk { break }
        }
        if reading.skipped > 0 {
            logger.warning("room \(keys.room): \(reading.skipped) entries of its history in Redis were not records of it: skipped")
        }
        let log = reading.log
        state.withLock { $0 = HistoryStreamWriter(last: reading.last, segments: reading.segments) }
        if let trim { queue.async { [self] in submit([self.trim(to: trim)], bytes: 0) } }
        return log.isEmpty ? nil : log
    }

    /// The room was forgotten or deleted: its stream goes (only while this server holds the
    /// room's lease: a relay forgetting the room deletes nothing).
    func remove() {
        queue.async { [self] in
            state.withLock { $0 = HistoryStreamWriter() }
            writes.enter()
            redis.submit(.init([RedisCommand.eval(Self.removeScript, keys: [keys.lease, keys.history],
                                                  arguments: RedisCommand.words(node))]) { [writes] _ in writes.leave() })
        }
    }

    /// Waits (at most a few seconds: Redis may be stalled) for the records queued to be answered.
    func flush() {
        queue.sync {}
        _ = writes.wait(timeout: .now() + 3)
    }

    static let removeScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[2]) else return 0 end
        """

    // MARK: writing

    private func write(_ record: [UInt8], _ decision: HistoryStreamWriter.Decision) {
        switch decision {
        case .write(let id, _): submit([add(id, record)], bytes: record.count)
        case .drop(let say, _): if say { overflowed() }
        }
    }

    private func overflowed() {
        logger.warning("room \(keys.room): more than \(HistoryStreamWriter.maxQueuedBytes >> 20) MB of history wait for Redis; its records are dropped until the next checkpoint (the history in memory goes on; a server taking the room over, or a relay, sees a gap)")
    }

    private func add(_ id: HistoryStreamID, _ record: [UInt8]) -> [[UInt8]] {
        RedisCommand.words("XADD", keys.history, id.description, HistoryStreamEntry.field) + [record]
    }

    private func trim(to id: HistoryStreamID) -> [[UInt8]] {
        RedisCommand.words("XTRIM", keys.history, "MINID", id.description)
    }

    /// `commands` fenced by the room's lease (a server that lost the room writes nothing more
    /// of it); `bytes` of records they carry stop counting as waiting once answered.
    private func submit(_ commands: [[[UInt8]]], bytes: Int) {
        writes.enter()
        redis.submit(.init([RedisCommand.fenced(lease: keys.lease, holder: node, commands)]) { [self] result in
            defer { writes.leave() }
            var failure: String?
            switch result {
            case .success(let replies):
                switch replies.first.flatMap(Fenced.init) {
                case .ran?: break
                case .refused?: failure = ""  // the room stops here: the replicator is told too
                case nil: failure = replies.first?.errorMessage ?? "an unexpected reply"
                }
            case .failure(let error):
                failure = error.description
            }
            let say = state.withLock { $0.answered(bytes: bytes, failed: failure != nil) }
            // Refused (""): another server holds the lease, the room stops here.
            if say, let failure, !failure.isEmpty {
                logger.warning("room \(keys.room): its history could not be written to Redis (\(failure)); its records are dropped until the next checkpoint")
            }
        })
    }
}
