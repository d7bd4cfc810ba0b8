import Dispatch
import Foundation
import LayoutCore
import LayoutRooms
import Logging
import Synchronization

/// The thread that sends the cluster's commands to Redis: batches from any thread, pipelined
/// on one connection (a batch's commands go back to back, and batches in the order they came),
/// each batch's replies handed to its completion on this thread (a batch refused or replaced
/// before it was sent: on another, never the submitter's). While Redis is unreachable,
/// batches fail at once and the thread reconnects with backoff (`RedisBackoff`).
final class RedisCommands: Sendable {
    typealias Completion = @Sendable (Result<[RedisReply], RedisConnection.Failure>) -> Void

    struct Batch: Sendable {
        let commands: [[[UInt8]]]
        /// A waiting batch with the same key is replaced by this one (a room's frames: the
        /// newest wins when Redis is slower than the room).
        let replacing: String?
        let completion: Completion?

        init(_ commands: [[[UInt8]]], replacing: String? = nil, completion: Completion? = nil) {
            self.commands = commands
            self.replacing = replacing
            self.completion = completion
        }
    }

    private struct State {
        var queue: [Batch] = []
        var stopped = false
        /// Bytes of the commands waiting, to bound what an unreachable or slow Redis holds back.
        var queuedBytes = 0
    }

    /// Past this much waiting, batches are refused (their completions fail): the owner's
    /// relays then resynchronise (`RoomMirror`) rather than the server's memory growing.
    static let maxQueuedBytes = 256 << 20

    private let address: RedisAddress
    /// What this connection carries, in its thread's name and its log lines.
    private let purpose: String
    private let timeout: Double
    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let linkChanged: @Sendable (Bool) -> Void
    private let logger: Logger
    /// Redis was seen answering elsewhere (the subscription came back): the next batch tries
    /// to connect at once, whatever the backoff says.
    private let retryNow = Atomic<Bool>(false)

    /// `linkChanged(true)` when a connection is made, `false` when one is lost.
    init(address: RedisAddress, purpose: String = "commands", timeout: Double = 2, logger: Logger,
         linkChanged: @escaping @Sendable (Bool) -> Void) {
        self.address = address
        self.purpose = purpose
        self.timeout = timeout
        self.logger = logger
        self.linkChanged = linkChanged
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "redis-\(purpose)"
        thread.start()
    }

    func stop() {
        state.withLock { $0.stopped = true }
        signal.signal()
        finished.wait()
    }

    func submit(_ batch: Batch) {
        let bytes = Self.size(of: batch)
        let (refused, replaced) = state.withLock { state -> (Bool, Batch?) in
            // The newer batch goes last, behind whatever was queued after the one it replaces
            // (events its frame depends on).
            if let key = batch.replacing, let index = state.queue.lastIndex(where: { $0.replacing == key }) {
                let old = state.queue.remove(at: index)
                state.queuedBytes += bytes - Self.size(of: old)
                state.queue.append(batch)
                return (false, old)
            }
            guard !state.stopped, state.queuedBytes + bytes <= Self.maxQueuedBytes else { return (true, nil) }
            state.queuedBytes += bytes
            state.queue.append(batch)
            return (false, nil)
        }
        // Never on the caller's thread: a caller may hold a lock its completion takes.
        if let completion = replaced?.completion {
            DispatchQueue.global().async { completion(.failure(.init(description: "replaced by a newer one"))) }
        }
        if refused {
            if let completion = batch.completion {
                let why = "more than \(Self.maxQueuedBytes >> 20) MB wait for Redis"
                DispatchQueue.global().async { completion(.failure(.init(description: why))) }
            }
            return
        }
        signal.signal()
    }

    /// Redis answers again (another connection to it was just made): a connection lost is
    /// made again with the next batch, not after the rest of its backoff.
    func reconnectNow() {
        retryNow.store(true, ordering: .releasing)
    }

    /// Sends `commands` and waits for their replies (at most `timeout` more than the queue
    /// ahead of them takes). Not on this thread.
    func call(_ commands: [[[UInt8]]]) -> Result<[RedisReply], RedisConnection.Failure> {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<[RedisReply], RedisConnection.Failure>?>(nil)
        submit(Batch(commands) { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        })
        done.wait()
        return result.withLock { $0! }
    }

    private static func size(of batch: Batch) -> Int {
        batch.commands.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
    }

    private func run() {
        var connection: RedisConnection?
        var backoff = RedisBackoff()
        var connectedBefore = false
        defer { finished.signal() }
        while true {
            signal.wait()
            let (batches, stopped) = state.withLock { state in
                defer { state.queue.removeAll(); state.queuedBytes = 0 }
                return (state.queue, state.stopped)
            }
            if stopped {
                for batch in batches { batch.completion?(.failure(.init(description: "the server is stopping"))) }
                return
            }
            guard !batches.isEmpty else { continue }
            if connection == nil { connection = connect(&backoff, connectedBefore: &connectedBefore) }
            guard let link = connection else {
                for batch in batches { batch.completion?(.failure(.init(description: "Redis is unreachable"))) }
                continue
            }
            do {
                try send(batches, on: link)
            } catch {
                connection = nil
                backoff.failed(now: Uptime.seconds())
                logger.warning("cluster: \(purpose) lost Redis (\(error)); reconnecting")
                linkChanged(false)
                for batch in batches { batch.completion?(.failure(error)) }
            }
        }
    }

    /// A new connection to Redis, when `backoff` (or a `reconnectNow`) lets one be tried now
    /// and it is made; nil otherwise.
    /// `connectedBefore`: a connection was made before (the next one is a reconnect).
    private func connect(_ backoff: inout RedisBackoff, connectedBefore: inout Bool) -> RedisConnection? {
        if retryNow.exchange(false, ordering: .acquiringAndReleasing) { backoff.succeeded() }
        guard backoff.mayTry(now: Uptime.seconds()) else { return nil }
        do {
            let connection = try RedisConnection(address, timeout: timeout)
            if connectedBefore { ClusterMetrics.redisReconnects.increment() }
            connectedBefore = true
            backoff.succeeded()
            logger.info("cluster: \(purpose) connected to \(address)")
            linkChanged(true)
            return connection
        } catch {
            backoff.failed(now: Uptime.seconds())
            logger.warning("cluster: Redis unreachable for \(purpose) (\(error)); next try in \(backoff.delayDescription)")
            return nil
        }
    }

    /// Pipelines the commands of `batches` on `link` and hands each batch its replies.
    private func send(_ batches: [Batch], on link: RedisConnection) throws(RedisConnection.Failure) {
        let start = DispatchTime.now().uptimeNanoseconds
        for batch in batches { for command in batch.commands { link.append(command) } }
        let replies = try link.replies(batches.reduce(0) { $0 + $1.commands.count })
        ClusterMetrics.redisRoundTrip.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
        var offset = 0
        for batch in batches {
            batch.completion?(.success(Array(replies[offset..<(offset + batch.commands.count)])))
            offset += batch.commands.count
        }
    }

}

/// Reconnecting to Redis: at once after a first loss, then waits doubling from 0.1 s to 2 s.
struct RedisBackoff: Sendable, Equatable {
    private(set) var failures = 0
    private(set) var notBefore = 0.0

    static let first = 0.1
    static let longest = 2.0

    var delay: Double { failures == 0 ? 0 : min(Self.longest, Self.first * Double(1 << min(failures - 1, 8))) }

    var delayDescription: String { "\(delay) s" }

    func mayTry(now: Double) -> Bool { now >= notBefore }

    mutating func failed(now: Double) {
        failures += 1
        notBefore = now + delay
    }

    mutating func succeeded() {
        failures = 0
        notBefore = 0
    }
}
