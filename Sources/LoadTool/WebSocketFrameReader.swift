/// The load tool's own reading of a server's WebSocket stream (RFC 6455, unmasked frames):
/// it follows frame headers and payload lengths, keeps only the first `keptBytes` of each
/// message (its head) and its length, and hands back pings (to answer) and the close code.
/// libwebsockets' client parses a payload a byte at a time; this skips over it in blocks.
struct WebSocketFrameReader {
    enum Event: Equatable {
        /// `startedAt`: the time given with the read in which its first frame's header ended.
        case message(binary: Bool, head: [UInt8], length: Int, startedAt: Double)
        case ping([UInt8])
        case close(Int?)
    }

    let keptBytes: Int
    private var header: [UInt8] = []
    private var inPayload = false
    private var remaining = 0
    private var opcode: UInt8 = 0
    private var fin = false
    private var control: [UInt8] = []
    private var binary = false
    private var head: [UInt8] = []
    private var length = 0
    private var startedAt = 0.0

    init(keptBytes: Int) { self.keptBytes = keptBytes }

    /// Reads `bytes` (read at `time`) as the next part of the stream; `emit` gets every whole
    /// message and control frame.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, at time: Double = 0, _ emit: (Event) -> Void) {
        var index = 0
        while index < bytes.count {
            if inPayload {
                let count = min(remaining, bytes.count - index)
                payload(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
                remaining -= count
                index += count
            } else {
                header.append(bytes[index])
                index += 1
                guard let total = Self.headerLength(header), header.count == total else { continue }
                startFrame(at: time)
            }
            if inPayload, remaining == 0 { endFrame(emit) }
        }
    }

    /// Bytes of a frame header that begins with `bytes`; nil until its length is known.
    static func headerLength(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        let size = bytes[1] & 0x7f
        return 2 + (size == 126 ? 2 : size == 127 ? 8 : 0) + (bytes[1] & 0x80 != 0 ? 4 : 0)
    }

    private mutating func startFrame(at time: Double) {
        fin = header[0] & 0x80 != 0
        opcode = header[0] & 0x0f
        let size = header[1] & 0x7f
        if size < 126 {
            remaining = Int(size)
        } else {
            remaining = header[2..<(size == 126 ? 4 : 10)].reduce(0) { $0 << 8 | Int($1) }
        }
        if opcode == 1 || opcode == 2 {
            binary = opcode == 2
            startedAt = time
        }
        header.removeAll(keepingCapacity: true)
        inPayload = true
    }

    private mutating func payload(_ bytes: UnsafeRawBufferPointer) {
        if opcode >= 8 {
            control += bytes
            return
        }
        length += bytes.count
        if head.count < keptBytes { head += bytes.prefix(keptBytes - head.count) }
    }

    private mutating func endFrame(_ emit: (Event) -> Void) {
        inPayload = false
        switch opcode {
        case 9: emit(.ping(control))
        case 8: emit(.close(control.count >= 2 ? Int(control[0]) << 8 | Int(control[1]) : nil))
        case 10: break
        default:
            guard fin else { return }
            emit(.message(binary: binary, head: head, length: length, startedAt: startedAt))
            head.removeAll(keepingCapacity: true)
            length = 0
        }
        control.removeAll(keepingCapacity: true)
    }
}
