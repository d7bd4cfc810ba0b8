import Dispatch
import LayoutCore
import Synchronization

/// A relayed room's history, as this server last read it from the room's stream
/// (`ClusterKeys.history`, written by its owner: `RedisHistoryStream`), for its clients'
/// `history` and `moment`. Each request reads what was added since the last read (XRANGE from
/// the last entry read, on the cluster's history connection), then is answered from the log
/// on `queue`, never on the service thread. Requests that come while a read is under way get
/// the next read, which starts once that one ended.
final class RelayedHistory: Sendable {
    /// Why the history could not be read.
    struct Failure: Error {
        let description: String
    }

    typealias Answer = @Sendable (Result<HistoryLog, Failure>) -> Void

    /// The mirror this history belongs to (a new one after a failover is a new history).
    let mirror: ObjectIdentifier
    private let keys: ClusterKeys
    private let redis: RedisCommands
    private let queue: DispatchQueue
    private let state: Mutex<State>

    private struct State {
        var reading: HistoryStreamLog
        var busy: Bool = false
        /// Answered when the read under way ends.
        var current: [Answer] = []
        /// Came while a read was under way: answered after the next.
        var waiting: [Answer] = []
    }

    init(room: RoomName, mirror: ObjectIdentifier, bounds: HistoryBounds, redis: RedisCommands, queue: DispatchQueue) {
        keys = ClusterKeys(room)
        self.mirror = mirror
        self.redis = redis
        self.queue = queue
        state = Mutex(State(reading: HistoryStreamLog(bounds: bounds)))
    }

    /// The history with what the stream holds now, handed to `answer` on `queue`.
    func read(_ answer: @escaping Answer) {
        let start = state.withLock { state -> Bool in
            if state.busy {
                state.waiting.append(answer)
                return false
            }
            state.busy = true
            state.current = [answer]
            return true
        }
        if start { fetch() }
    }

    /// Reads the entries after the last one read; a stream whose last entry read is gone (it
    /// was trimmed past it, or the room was made anew) is read again from its start.
    private func fetch() {
        let last = state.withLock { $0.reading.last }
        var commands = [RedisCommand.words("XRANGE", keys.history, last?.after ?? "-", "+", "COUNT", String(RedisHistoryStream.chunk))]
        if let last {
            commands.insert(RedisCommand.eval(Self.stillThere, keys: [keys.history], arguments: RedisCommand.words(last.description)), at: 0)
        }
        redis.submit(.init(commands) { [self] result in
            queue.async { [self] in fetched(result, checked: last != nil) }
        })
    }

    /// 1 when the entry ARGV[1] is still in the stream, else 0: said without sending the entry
    /// (a keyframe of a large room is megabytes, and a client scrubbing asks many times).
    static let stillThere = "return #redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1])"

    private func fetched(_ result: Result<[RedisReply], RedisConnection.Failure>, checked: Bool) {
        let replies: [RedisReply]
        switch result {
        case .success(let got): replies = got
        case .failure(let failure): return finish(.failure(Failure(description: failure.description)))
        }
        if checked, replies.first == .integer(0) {
            state.withLock { $0.reading = HistoryStreamLog(bounds: $0.reading.log.bounds) }
            return fetch()
        }
        guard let reply = replies.last, let chunk = HistoryStreamChunk(reply) else {
            return finish(.failure(Failure(description: replies.last?.errorMessage ?? "not a stream")))
        }
        let log = state.withLock { state in
            state.reading.apply(chunk)
            return state.reading.log
        }
        if chunk.count == RedisHistoryStream.chunk { return fetch() }
        finish(.success(log))
    }

    private func finish(_ outcome: Result<HistoryLog, Failure>) {
        let (answers, again) = state.withLock { state -> ([Answer], Bool) in
            let answers = state.current
            state.current = state.waiting
            state.waiting = []
            state.busy = !state.current.isEmpty
            return (answers, state.busy)
        }
        for answer in answers { answer(outcome) }
        if again { fetch() }
    }
}

/// The relayed rooms' histories read so far, by room: made at a client's first request, gone
/// with the room's mirror (the room left, or this server steps it now).
final class RelayedHistories: Sendable {
    private let histories = Mutex<[RoomName: RelayedHistory]>([:])

    /// `mirror`'s history (a new one when the room has another mirror now).
    func history(of room: RoomName, mirror: ObjectIdentifier, make: () -> RelayedHistory) -> RelayedHistory {
        histories.withLock { histories in
            if let history = histories[room], history.mirror == mirror { return history }
            let history = make()
            histories[room] = history
            return history
        }
    }

    func remove(_ room: RoomName) {
        histories.withLock { _ = $0.removeValue(forKey: room) }
    }
}
