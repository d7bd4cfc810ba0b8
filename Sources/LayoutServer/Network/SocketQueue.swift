import Glibc

/// What a connection's socket still holds, and how much it may hold: the kernel's send buffer
/// grows to 4 MB by itself, and frames waiting there are frames a slow reader gets late. So
/// each WebSocket's buffer is capped near two frames, and the socket reports itself writable
/// only once what it holds has been sent (`TCP_NOTSENT_LOWAT` 1): libwebsockets' WRITEABLE then
/// comes when the previous bytes have left, and the reader gets the newest frame.
enum SocketQueue {
    /// `SIOCOUTQNSD` (linux/sockios.h): bytes in the send queue not yet sent.
    private static let notSentRequest: UInt = 0x894B
    /// `TCP_NOTSENT_LOWAT` (linux/tcp.h): poll reports the socket writable only while fewer
    /// unsent bytes than this wait in it.
    private static let notSentLowWater: Int32 = 25
    static let smallestBuffer = 64 << 10
    static let largestBuffer = 4 << 20

    /// `SIOCOUTQ` (linux/sockios.h, TIOCOUTQ): bytes in the send queue not yet acknowledged.
    private static let unacknowledgedRequest: UInt = 0x5411

    /// Bytes written to the socket that the peer has not acknowledged yet, sent or not (0
    /// when unknown).
    static func unacknowledgedBytes(_ descriptor: Int32) -> Int {
        var count: Int32 = 0
        guard ioctl(descriptor, unacknowledgedRequest, &count) == 0 else { return 0 }
        return Int(count)
    }

    /// What the kernel's TCP_INFO says of the sending side, in one call a frame: the bytes
    /// written but not sent yet, and the receive window the peer advertised last (room left
    /// in its buffer, `PeerPacing`; nil from a kernel older than the field). Where TCP_INFO
    /// is too short for the unsent count (before Linux 4.6), `SIOCOUTQNSD` gives it.
    static func sending(_ descriptor: Int32) -> (unsent: Int, peerWindow: Int?) {
        withUnsafeTemporaryAllocation(byteCount: tcpInfoBytes, alignment: 8) { info in
            var length = socklen_t(tcpInfoBytes)
            guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_INFO, info.baseAddress, &length) == 0,
                  Int(length) >= notSentOffset + 4 else { return (unsentBytes(descriptor), nil) }
            let unsent = Int(info.load(fromByteOffset: notSentOffset, as: UInt32.self))
            guard Int(length) >= sendWindowOffset + 4 else { return (unsent, nil) }
            return (unsent, Int(info.load(fromByteOffset: sendWindowOffset, as: UInt32.self)))
        }
    }

    /// Bytes written to the socket that the kernel has not sent yet (0 when unknown).
    private static func unsentBytes(_ descriptor: Int32) -> Int {
        var count: Int32 = 0
        guard ioctl(descriptor, notSentRequest, &count) == 0 else { return 0 }
        return Int(count)
    }

    /// `struct tcp_info` of linux/tcp.h, which glibc's netinet/tcp.h lags behind: its size,
    /// and where `tcpi_notsent_bytes` and `tcpi_snd_wnd` ("peer's advertised receive window
    /// after scaling") are.
    private static let tcpInfoBytes = 232
    private static let notSentOffset = 144
    private static let sendWindowOffset = 228

    /// Writable (for poll, and so for libwebsockets) only once everything written has been sent.
    static func reportWritableWhenSent(_ descriptor: Int32) {
        var value: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), notSentLowWater, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The send buffer for messages of `largest` bytes: two of them, within bounds.
    static func bufferSize(forMessagesOf largest: Int) -> Int {
        min(max(2 * largest, smallestBuffer), largestBuffer)
    }

    /// Sets the socket's send buffer (the kernel doubles it for its own bookkeeping).
    static func setSendBuffer(_ descriptor: Int32, bytes: Int) {
        var value = Int32(bytes)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }
}
