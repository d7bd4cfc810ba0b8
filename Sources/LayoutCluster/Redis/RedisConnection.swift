import CHiredis
import Glibc
import LayoutCore

/// One hiredis context: connect (with AUTH and SELECT), send commands pipelined, read replies.
/// Not thread-safe, as hiredis's contexts are not: each belongs to the one thread that made it
/// (`RedisCommands`, `RedisSubscriber`).
final class RedisConnection {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let context: UnsafeMutablePointer<redisContext>

    /// Connects within `timeout` seconds; every read and write then waits at most that long.
    init(_ address: RedisAddress, timeout: Double) throws(Failure) {
        let time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        guard let context = redisConnectWithTimeout(address.host, Int32(address.port), time) else {
            throw Failure(description: "\(address): cannot allocate a connection")
        }
        guard context.pointee.err == 0 else {
            let why = Self.errorText(context)
            redisFree(context)
            throw Failure(description: "\(address): \(why)")
        }
        self.context = context
        redisSetTimeout(context, time)
        redisEnableKeepAlive(context)
        if let password = address.password {
            // Redis's answer is said by its code alone (WRONGPASS, NOPERM…), and never the
            // credentials: they are not in any error or log.
            let reply = try command(address.user.map { ["AUTH", $0, password] } ?? ["AUTH", password])
            if let message = reply.errorMessage {
                let code = message.prefix { $0 != " " }.prefix(20)
                throw Failure(description: "\(address): Redis refused the credentials (\(code))")
            }
        }
        if address.database != 0 {
            try expectOK(command(["SELECT", String(address.database)]), "SELECT \(address.database)")
        }
    }

    deinit { redisFree(context) }

    var descriptor: Int32 { context.pointee.fd }

    /// Sends one command and waits for its reply.
    func command(_ arguments: [String]) throws(Failure) -> RedisReply {
        append(arguments.map { Array($0.utf8) })
        return try replies(1)[0]
    }

    /// Queues a command in hiredis's output buffer (nothing is sent until `flush` or `replies`).
    func append(_ arguments: [[UInt8]]) {
        var pointers: [UnsafePointer<CChar>?] = []
        var lengths: [Int] = []
        // hiredis copies the arguments into its buffer before returning.
        let buffers = arguments.map { bytes -> UnsafeMutableBufferPointer<CChar> in
            let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBytes { source in
                if let base = source.baseAddress { UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: base, byteCount: bytes.count) }
            }
            return buffer
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        for (index, buffer) in buffers.enumerated() {
            pointers.append(UnsafePointer(buffer.baseAddress))
            lengths.append(arguments[index].count)
        }
        _ = pointers.withUnsafeMutableBufferPointer { argv in
            lengths.withUnsafeBufferPointer { argvlen in
                redisAppendCommandArgv(context, Int32(arguments.count), argv.baseAddress, argvlen.baseAddress)
            }
        }
    }

    /// Writes everything queued.
    func flush() throws(Failure) {
        var done: Int32 = 0
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else { throw failure() }
        }
    }

    /// Sends what is queued and reads `count` replies (waiting for each).
    func replies(_ count: Int) throws(Failure) -> [RedisReply] {
        try flush()
        var replies: [RedisReply] = []
        replies.reserveCapacity(count)
        for _ in 0..<count {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else { throw failure() }
            replies.append(RedisReply(raw.assumingMemoryBound(to: redisReply.self)))
            freeReplyObject(raw)
        }
        return replies
    }

    /// After `poll` said the socket is readable: reads once (never blocking) and returns every
    /// whole reply that arrived; an empty array when the bytes so far end inside one.
    func readAvailable() throws(Failure) -> [RedisReply] {
        guard redisBufferRead(context) == REDIS_OK else { throw failure() }
        return try buffered()
    }

    /// The whole replies already read into hiredis's buffer.
    func buffered() throws(Failure) -> [RedisReply] {
        var replies: [RedisReply] = []
        while true {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw failure() }
            guard let raw else { return replies }
            replies.append(RedisReply(raw.assumingMemoryBound(to: redisReply.self)))
            freeReplyObject(raw)
        }
    }

    private func expectOK(_ reply: RedisReply, _ what: String) throws(Failure) {
        if let message = reply.errorMessage { throw Failure(description: "\(what): \(message)") }
    }

    private func failure() -> Failure {
        Failure(description: Self.errorText(context))
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        let text = withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "connection lost" : text
    }
}
