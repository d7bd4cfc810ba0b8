import CZlib
import EventBus
import ForceLayout

/// A history file's bytes (docs/history-format.md): the header, then records framed by their
/// length and CRC-32, each a checkpoint, an event or a keyframe. Writes and reads bytes; the
/// files themselves are `HistoryFolder`'s. Pure.
package enum HistoryFileFormat {
    package static let header = Array("FLHIST1\n".utf8)

    package enum RecordType: UInt8, Sendable {
        case checkpoint = 1, event = 2, keyframe = 3
    }

    /// A record read back.
    package enum Record: Sendable {
        case checkpoint(Checkpoint)
        case event(Envelope<LayoutEvent>)
        case keyframe(Keyframe)
    }

    // MARK: writing

    /// `type` and `body` framed: length, CRC-32, type, body.
    package static func framed(_ type: RecordType, _ body: [UInt8]) -> [UInt8] {
        var crc = crc32(0, nil, 0)
        crc = [type.rawValue].withUnsafeBufferPointer { crc32(crc, $0.baseAddress, 1) }
        crc = body.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        var bytes = LittleEndianBytes(capacity: 9 + body.count)
        bytes.u32(UInt32(body.count + 1))
        bytes.u32(UInt32(truncatingIfNeeded: crc))
        bytes.u8(type.rawValue)
        bytes.raw(body)
        return bytes.bytes
    }

    package static func checkpoint(_ checkpoint: Checkpoint) -> [UInt8] {
        var bytes = LittleEndianBytes(capacity: 24)
        bytes.i64(checkpoint.at)
        bytes.i64(checkpoint.tick)
        bytes.u64(checkpoint.seq)
        bytes.raw(StateFile.bytes(of: checkpoint.state))
        return framed(.checkpoint, bytes.bytes)
    }

    /// The event as an `event` message carries it.
    package static func event(_ envelope: Envelope<LayoutEvent>) -> [UInt8] {
        var body = HistoryEventReading.prefix
        body.append(contentsOf: String(envelope.seq).utf8)
        body.append(contentsOf: envelope.event.encodedTail)
        return framed(.event, body)
    }

    /// `withIDs`: the ids are written (else a reader takes those of the keyframe or checkpoint
    /// before it in the file).
    package static func keyframe(_ keyframe: Keyframe, withIDs: Bool) -> [UInt8] {
        let count = keyframe.ids.count
        var bytes = LittleEndianBytes(capacity: 45 + count * (withIDs ? 8 : 4))
        bytes.i64(keyframe.at)
        bytes.i64(keyframe.tick)
        bytes.u64(keyframe.seq)
        bytes.f32(keyframe.box.minX)
        bytes.f32(keyframe.box.minY)
        bytes.f32(keyframe.box.maxX)
        bytes.f32(keyframe.box.maxY)
        bytes.u32(UInt32(count))
        bytes.u8(withIDs ? 1 : 0)
        if withIDs { for id in keyframe.ids { bytes.u32(UInt32(truncatingIfNeeded: id)) } }
        for value in keyframe.quantized.prefix(count * 2) { bytes.u16(value) }
        return framed(.keyframe, bytes.bytes)
    }

    // MARK: reading

    /// The records of a file's bytes, in order, and how many bytes are whole (the header and
    /// every record up to the first whose length runs past the end or whose CRC is wrong: a
    /// writer stopped there). nil: no header (not a history file). Records of an unknown type
    /// and ones that do not parse are skipped.
    package static func read(_ bytes: [UInt8]) -> (records: [Record], wholeBytes: Int)? {
        guard bytes.starts(with: header) else { return nil }
        var records: [Record] = []
        var offset = header.count
        var ids: [CellID] = []
        while let (record, next) = record(in: bytes, at: offset, ids: &ids) {
            offset = next
            if let record { records.append(record) }
        }
        return (records, offset)
    }

    /// The record framed at `offset` of `bytes` and the offset after it; nil when none is whole
    /// there (its length runs past the end, or its CRC is wrong). The record is nil when it is
    /// of an unknown type or does not parse (skipped). `ids`: those of the last keyframe with
    /// ids or checkpoint before it (a keyframe without ids has them), updated by this one. A
    /// file's records are read so, and a Redis stream's, one record an entry (docs/cluster.md).
    package static func record(in bytes: [UInt8], at offset: Int, ids: inout [CellID]) -> (record: Record?, next: Int)? {
        guard offset >= 0, bytes.count - offset >= 9 else { return nil }
        let length = Int(bytes.u32(at: offset))
        guard length >= 1, length <= bytes.count - offset - 8 else { return nil }
        let stored = bytes.u32(at: offset + 4)
        let payload = bytes[(offset + 8)..<(offset + 8 + length)]
        let crc = payload.withUnsafeBufferPointer { crc32(crc32(0, nil, 0), $0.baseAddress, uInt($0.count)) }
        guard UInt32(truncatingIfNeeded: crc) == stored else { return nil }
        let next = offset + 8 + length
        let body = payload.dropFirst()
        switch RecordType(rawValue: payload.first!) {
        case .checkpoint:
            guard let point = checkpoint(body) else { return (nil, next) }
            ids = point.state.layout.cells.map(\.id)
            return (.checkpoint(point), next)
        case .event:
            return (HistoryEventReading.envelope(body).map { .event($0) }, next)
        case .keyframe:
            return (keyframe(body, ids: &ids).map { .keyframe($0) }, next)
        case nil:
            return (nil, next)
        }
    }

    private static func checkpoint(_ body: ArraySlice<UInt8>) -> Checkpoint? {
        guard body.count > 24 else { return nil }
        let start = body.startIndex
        guard let state = try? StateFile.decode(Array(body[(start + 24)...]), path: "history checkpoint") else { return nil }
        return Checkpoint(at: Int(Int64(bitPattern: body.u64(at: start))), tick: Int(Int64(bitPattern: body.u64(at: start + 8))),
                          seq: body.u64(at: start + 16), state: state)
    }

    private static func keyframe(_ body: ArraySlice<UInt8>, ids: inout [CellID]) -> Keyframe? {
        let start = body.startIndex
        guard body.count >= 45 else { return nil }
        let count = Int(body.u32(at: start + 40)), withIDs = body[start + 44] & 1 == 1
        guard body.count == 45 + count * (withIDs ? 8 : 4) else { return nil }
        var cursor = start + 45
        if withIDs {
            ids = (0..<count).map { CellID(body.u32(at: cursor + 4 * $0)) }
            cursor += 4 * count
        }
        guard ids.count == count else { return nil }
        let quantized = (0..<(count * 2)).map { body.u16(at: cursor + 2 * $0) }
        let box = FrameBox(minX: Float(bitPattern: body.u32(at: start + 24)), minY: Float(bitPattern: body.u32(at: start + 28)),
                           maxX: Float(bitPattern: body.u32(at: start + 32)), maxY: Float(bitPattern: body.u32(at: start + 36)))
        return Keyframe(at: Int(Int64(bitPattern: body.u64(at: start))), tick: Int(Int64(bitPattern: body.u64(at: start + 8))),
                        seq: body.u64(at: start + 16), ids: ids, box: box, quantized: quantized)
    }
}

extension Collection where Element == UInt8, Index == Int {
    /// Little-endian numbers at `offset` (the caller checked the bytes are there).
    func u16(at offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    func u32(at offset: Int) -> UInt32 { UInt32(u16(at: offset)) | UInt32(u16(at: offset + 2)) << 16 }
    func u64(at offset: Int) -> UInt64 { UInt64(u32(at: offset)) | UInt64(u32(at: offset + 4)) << 32 }
}
