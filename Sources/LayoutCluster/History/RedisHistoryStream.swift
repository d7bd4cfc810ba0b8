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
/// Redis is bounded (`maxQueuedBytes`): past it, records are dropped (logged) until the next
/// checkpoint, which starts a segment readable on its own.
final class RedisHistoryStream: HistorySink {
    let keys: ClusterKeys
    private let node: String
    private let redis: RedisCommands
    private let logger: Logger
    private let queue = DispatchQueue(label: "forcelayout.history-stream", qos: .utility)
    /// Batches sent and not answered yet (`flush` waits for them).
    private let writes = DispatchGroup()
    private let state = Mutex(State())

    private struct State {
        /// The last ID written (nil: none yet; after `load`, the stream's last).
        var last: HistoryStreamID?
        var segments = HistoryStreamSegments()
        /// The ids of the last checkpoint or keyframe with ids written.
        var ids: [CellID] = []
        /// Bytes of records sent and not answered.
        var queuedBytes = 0
        /// A record did not reach the stream: the others are dropped until the next checkpoint
        /// (events applied to a state that lacks one would rebuild wrong moments).
        var gap = false
        /// The gap was logged (once until a checkpoint is written again).
        var warned = false
    }

    /// Most bytes of records waiting for Redis, per room: a stalled Redis costs this much
    /// memory at most, and the room's frames never wait for it.
    static let maxQueuedBytes = 32 << 20
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
            let (commands, bytes) = state.withLock { state -> ([[[UInt8]]], Int) in
                guard state.queuedBytes + record.count <= Self.maxQueuedBytes else {
                    overflowed(&state)
                    // What the log dropped goes from the stream all the same.
                    return (state.segments.started(nil, dropped: dropped).map { [trim(to: $0)] } ?? [], 0)
                }
                let id = HistoryStreamID.next(after: state.last, at: checkpoint.at)
                state.last = id
                // A segment readable on its own: the records after it go again.
                state.gap = false
                state.warned = false
                state.ids = checkpoint.state.layout.cells.map(\.id)
                state.queuedBytes += record.count
                let minimum = state.segments.started(id, dropped: dropped)
                return ([add(id, record)] + (minimum.map { [trim(to: $0)] } ?? []), record.count)
            }
            if !commands.isEmpty { submit(commands, bytes: bytes) }
        }
    }

    func append(_ envelope: Envelope<LayoutEvent>) {
        queue.async { [self] in
            let record = HistoryFileFormat.event(envelope)
            guard let id = state.withLock({ reserve(record.count, at: envelope.event.at, &$0) }) else { return }
            submit([add(id, record)], bytes: record.count)
        }
    }

    func append(_ keyframe: Keyframe) {
        queue.async { [self] in
            let written = state.withLock { state -> (HistoryStreamID, [UInt8])? in
                let withIDs = keyframe.ids != state.ids
                let record = HistoryFileFormat.keyframe(keyframe, withIDs: withIDs)
                guard let id = reserve(record.count, at: keyframe.at, &state) else { return nil }
                if withIDs { state.ids = keyframe.ids }
                return (id, record)
            }
            guard let (id, record) = written else { return }
            submit([add(id, record)], bytes: record.count)
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
        state.withLock { state in
            state = State()
            state.last = reading.last
            state.segments = reading.segments
        }
        if let trim { queue.async { [self] in submit([self.trim(to: trim)], bytes: 0) } }
        return log.isEmpty ? nil : log
    }

    /// The room was forgotten or deleted: its stream goes (only while this server holds the
    /// room's lease: a relay forgetting the room deletes nothing).
    func remove() {
        queue.async { [self] in
            state.withLock { $0 = State() }
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

    /// The ID of a record of `bytes` made at `at`, counted as waiting; nil: it is dropped (a
    /// gap waiting for a checkpoint, or too much waits for Redis).
    private func reserve(_ bytes: Int, at: Int, _ state: inout State) -> HistoryStreamID? {
        guard !state.gap else { return nil }
        guard state.queuedBytes + bytes <= Self.maxQueuedBytes else {
            overflowed(&state)
            return nil
        }
        let id = HistoryStreamID.next(after: state.last, at: at)
        state.last = id
        state.queuedBytes += bytes
        return id
    }

    private func overflowed(_ state: inout State) {
        state.gap = true
        guard !state.warned else { return }
        state.warned = true
        logger.warning("room \(keys.room): more than \(Self.maxQueuedBytes >> 20) MB of history wait for Redis; its records are dropped until the next checkpoint (the history in memory goes on; a server taking the room over or a relay sees a gap)")
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
            state.withLock { state in
                state.queuedBytes -= bytes
                guard let failure else { return }
                state.gap = true
                guard !failure.isEmpty, !state.warned else { return }
                state.warned = true
                logger.warning("room \(keys.room): its history could not be written to Redis (\(failure)); its records are dropped until the next checkpoint")
            }
        })
    }
}
