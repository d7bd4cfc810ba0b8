import Foundation
import Glibc
import LayoutCore
import LayoutRooms
import Logging
import Synchronization

/// The thread that holds the cluster's subscriptions: one subscribed connection (which can do
/// nothing else), the channels any thread asks for, and each message handed to `received` on
/// this thread as it arrives. It waits in `poll` on the socket and on a pipe other threads
/// write to when the channels change; a ping every second (answered within three) tells a
/// dead Redis from a quiet one. After a loss it reconnects with backoff and subscribes again;
/// `subscribed` is told of every channel whose subscription (re)starts, so whoever mirrors it
/// can catch up on what it missed.
final class RedisSubscriber: Sendable {
    struct Handlers: Sendable {
        let received: @Sendable (_ channel: String, _ payload: [UInt8]) -> Void
        let subscribed: @Sendable (_ channel: String) -> Void
        let linkChanged: @Sendable (_ up: Bool) -> Void
    }

    private let address: RedisAddress
    private let handlers: Handlers
    private let logger: Logger
    private let wanted = Mutex<(channels: Set<String>, stopped: Bool)>(([], false))
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)

    init(address: RedisAddress, logger: Logger, handlers: Handlers) {
        self.address = address
        self.logger = logger
        self.handlers = handlers
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "redis-subscriber"
        thread.start()
    }

    func stop() {
        wanted.withLock { $0.stopped = true }
        wake()
        finished.wait()
    }

    func subscribe(_ channel: String) {
        let added = wanted.withLock { $0.channels.insert(channel).inserted }
        if added { wake() }
    }

    func unsubscribe(_ channel: String) {
        let removed = wanted.withLock { $0.channels.remove(channel) != nil }
        if removed { wake() }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() {
        defer { finished.signal() }
        var backoff = RedisBackoff()
        var wasUp = false
        while !wanted.withLock({ $0.stopped }) {
            if !backoff.mayTry(now: Uptime.seconds()) {
                waitForWake(seconds: backoff.notBefore - Uptime.seconds())
                continue
            }
            let connection: RedisConnection
            do {
                connection = try RedisConnection(address, timeout: 2)
            } catch {
                backoff.failed(now: Uptime.seconds())
                if wasUp { handlers.linkChanged(false); wasUp = false }
                continue
            }
            backoff.succeeded()
            wasUp = true
            handlers.linkChanged(true)
            do {
                try serve(connection)
            } catch {
                logger.warning("cluster: subscriptions lost (\(error)); resubscribing")
                backoff.failed(now: Uptime.seconds())
                handlers.linkChanged(false)
                wasUp = false
            }
        }
    }

    /// Keeps the subscriptions of `connection` in line with what is wanted and hands on the
    /// messages, until it fails (throws) or the subscriber stops (returns).
    private func serve(_ connection: RedisConnection) throws(RedisConnection.Failure) {
        var subscribed: Set<String> = []
        var lastHeard = Uptime.seconds()
        var pingSent: Double?
        while true {
            let (channels, stopped) = wanted.withLock { ($0.channels, $0.stopped) }
            if stopped { return }
            changeSubscriptions(of: connection, from: subscribed, to: channels)
            let now = Uptime.seconds()
            if let sent = pingSent, now - sent > 3 {
                throw RedisConnection.Failure(description: "no answer to a ping in 3 s")
            }
            if pingSent == nil, now - lastHeard >= 1 {
                connection.append([Array("PING".utf8)])
                pingSent = now
            }
            try connection.flush()
            subscribed = channels
            var fds = [pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, 1000)
            if fds[1].revents != 0 { drainWakes() }
            guard fds[0].revents != 0 else { continue }
            for reply in try connection.readAvailable() {
                lastHeard = Uptime.seconds()
                if handle(reply) { pingSent = nil }
            }
        }
    }

    /// Queues on `connection` the SUBSCRIBE and UNSUBSCRIBE that take it from `subscribed`
    /// to `channels`.
    private func changeSubscriptions(of connection: RedisConnection, from subscribed: Set<String>, to channels: Set<String>) {
        let adding = channels.subtracting(subscribed), dropping = subscribed.subtracting(channels)
        if !adding.isEmpty { connection.append([Array("SUBSCRIBE".utf8)] + adding.sorted().map { Array($0.utf8) }) }
        if !dropping.isEmpty { connection.append([Array("UNSUBSCRIBE".utf8)] + dropping.sorted().map { Array($0.utf8) }) }
    }

    /// Hands a message or a subscription's confirmation on to the handlers; true when `reply`
    /// is the answer to a ping.
    private func handle(_ reply: RedisReply) -> Bool {
        guard case .array(let parts) = reply, let kind = parts.first?.text else { return false }
        switch kind {
        case "message" where parts.count == 3:
            if let channel = parts[1].text, let payload = parts[2].bytes { handlers.received(channel, payload) }
        case "subscribe" where parts.count == 3:
            if let channel = parts[1].text { handlers.subscribed(channel) }
        case "pong":
            return true
        default:
            break
        }
        return false
    }

    private func waitForWake(seconds: Double) {
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 1, Int32(max(1, min(seconds, 2) * 1000)))
        drainWakes()
    }

    private func drainWakes() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }
}
