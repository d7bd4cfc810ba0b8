import ForceLayout

/// The `frame` of protocol v2 (`forcelayout.v2`): one binary message, little-endian.
///
///     0 u8 kind = 1 | 1 u8 flags (bit 0: membership) | 2 u16 0 | 4 u32 tick | 8 u32 v
///     12 f64 at | 20 f32 minX, minY, maxX, maxY | 36 u32 n
///     40 [membership: n × u32 id, u32 L, L bytes of JSON: the owners runs of v1]
///        n × (u16 qx, u16 qy)    x = minX + qx · (maxX − minX) / 65535, likewise y
///
/// 40 bytes and 4 a cell; 8 more a cell when the membership is in. Like `FrameEncoder`, both
/// forms are written from one pass over the positions, and the membership section only when
/// the membership version changed.
public struct BinaryFrameEncoder {
    public static let headSize = 40
    public static let kindFrame: UInt8 = 1
    public static let flagMembership: UInt8 = 1

    private var membership: (version: Int, section: [UInt8]) = (-1, [])

    /// The membership section of the last frame encoded.
    package var membershipSection: [UInt8] { membership.section }

    public init() {}

    /// `at`: wall-clock ms since 1970.
    public mutating func encode(_ simulation: Simulation, owners: @autoclosure () -> [Ownership.Run] = [],
                                at: Int) -> FrameEncoder.Frame {
        if membership.version != simulation.version {
            membership = (simulation.version, Self.membership(ids: simulation.ids, owners: owners()))
        }
        let box = FrameBox(xs: simulation.xs, ys: simulation.ys)
        func head(_ flags: UInt8) -> [UInt8] {
            Self.head(flags: flags, tick: simulation.tick, version: simulation.version, at: at, box: box,
                      count: simulation.count)
        }
        // Positions are quantized once, straight into the bare form, and copied behind the membership.
        let bareHead = head(0), positionBytes = simulation.count * 4
        let bare = OutgoingMessage(count: bareHead.count + positionBytes, binary: true) { buffer in
            buffer.copyBytes(from: bareHead)
            Self.writePositions(xs: simulation.xs, ys: simulation.ys, box: box,
                                into: UnsafeMutableRawBufferPointer(rebasing: buffer[bareHead.count...]))
        }
        let fullHead = head(Self.flagMembership), section = membership.section
        let full = OutgoingMessage(count: fullHead.count + section.count + positionBytes, binary: true) { buffer in
            buffer.copyBytes(from: fullHead)
            UnsafeMutableRawBufferPointer(rebasing: buffer[fullHead.count...]).copyBytes(from: section)
            UnsafeMutableRawBufferPointer(rebasing: buffer[(fullHead.count + section.count)...])
                .copyMemory(from: UnsafeRawBufferPointer(start: bare.payload + bareHead.count, count: positionBytes))
        }
        return FrameEncoder.Frame(version: simulation.version, withIDs: full, withoutIDs: bare)
    }

    static func head(flags: UInt8, tick: Int, version: Int, at: Int, box: FrameBox, count: Int) -> [UInt8] {
        var bytes = LittleEndianBytes(capacity: headSize)
        bytes.u8(kindFrame)
        bytes.u8(flags)
        bytes.u16(0)
        bytes.u32(UInt32(truncatingIfNeeded: tick))
        bytes.u32(UInt32(truncatingIfNeeded: version))
        bytes.f64(Double(at))
        for bound in [box.minX, box.minY, box.maxX, box.maxY] { bytes.f32(bound) }
        bytes.u32(UInt32(truncatingIfNeeded: count))
        return bytes.bytes
    }

    /// The ids, then the owners runs as v1 writes them (`[["c1",1,40],…]`), length first.
    static func membership(ids: [CellID], owners: [Ownership.Run]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 16 + owners.count * 20)
        FrameEncoder.writeOwners(owners, into: &writer)
        var bytes = LittleEndianBytes(capacity: ids.count * 4 + 4 + writer.bytes.count)
        for id in ids { bytes.u32(UInt32(truncatingIfNeeded: id)) }
        bytes.u32(UInt32(writer.bytes.count))
        bytes.raw(writer.bytes)
        return bytes.bytes
    }

    /// Every cell's (qx, qy) in the box, into `target` (4 bytes a cell).
    static func writePositions(xs: [Double], ys: [Double], box: FrameBox, into target: UnsafeMutableRawBufferPointer) {
        let count = min(xs.count, ys.count, target.count / 4)
        let (x0, xScale) = box.quantizer(box.minX, box.maxX)
        let (y0, yScale) = box.quantizer(box.minY, box.maxY)
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                for index in 0..<count {
                    let qx = UInt32(FrameBox.quantize(xs[index], from: x0, scale: xScale))
                    let qy = UInt32(FrameBox.quantize(ys[index], from: y0, scale: yScale))
                    target.storeBytes(of: (qx | qy << 16).littleEndian, toByteOffset: 4 * index, as: UInt32.self)
                }
            }
        }
    }
}
