import ForceLayout

/// The cells' positions at one moment of a room's history, as compact as a v2 frame: each
/// position quantized to 16 bits over the frame's box (4 bytes a cell), beside the ids (the
/// same array, shared, while the membership does not change).
public struct Keyframe: Sendable {
    /// When it was taken (ms since 1970) and the step count then.
    public let at: Int
    public let tick: Int
    /// The last event at or before it (0: none yet).
    public let seq: UInt64
    /// The cells, ascending (the engine's order), and their positions in that order.
    public let ids: [CellID]
    public let box: FrameBox
    /// `qx, qy` of each cell, in `ids`' order.
    public let quantized: [UInt16]

    public init(at: Int, tick: Int, seq: UInt64, ids: [CellID], box: FrameBox, quantized: [UInt16]) {
        self.at = at
        self.tick = tick
        self.seq = seq
        self.ids = ids
        self.box = box
        self.quantized = quantized
    }

    /// The simulation's positions now (ids: pass the previous keyframe's when the membership is
    /// unchanged, so they share one array).
    public init(of simulation: Simulation, at: Int, seq: UInt64, ids: [CellID]? = nil) {
        let box = FrameBox(xs: simulation.xs, ys: simulation.ys)
        var quantized = [UInt16](repeating: 0, count: simulation.count * 2)
        quantized.withUnsafeMutableBytes { buffer in
            BinaryFrameEncoder.writePositions(xs: simulation.xs, ys: simulation.ys, box: box, into: buffer)
        }
        self.init(at: at, tick: simulation.tick, seq: seq, ids: ids ?? simulation.ids, box: box, quantized: quantized)
    }

    /// Bytes it takes in the history: the head, 4 a cell, and the ids (counted here, whether
    /// or not a file writes them again: a bound, not an exact size).
    public var bytes: Int { 48 + ids.count * 8 }

    /// The position of the cell at `index` of `ids`, as the frame's reader would decode it.
    public var decoder: (Int) -> (x: Double, y: Double) {
        let (originX, stepX) = Self.step(box.minX, box.maxX)
        let (originY, stepY) = Self.step(box.minY, box.maxY)
        let quantized = quantized
        return { index in
            (originX + Double(quantized[index * 2]) * stepX, originY + Double(quantized[index * 2 + 1]) * stepY)
        }
    }

    /// Every cell's position, as the frame's reader would decode it.
    public func positions() -> [CellID: (x: Double, y: Double)] {
        let (originX, stepX) = Self.step(box.minX, box.maxX)
        let (originY, stepY) = Self.step(box.minY, box.maxY)
        var positions: [CellID: (x: Double, y: Double)] = [:]
        positions.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() where index * 2 + 1 < quantized.count {
            positions[id] = (originX + Double(quantized[index * 2]) * stepX, originY + Double(quantized[index * 2 + 1]) * stepY)
        }
        return positions
    }

    private static func step(_ low: Float, _ high: Float) -> (Double, Double) {
        (Double(low), (Double(high) - Double(low)) / 65535)
    }
}
