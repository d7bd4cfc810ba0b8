import ForceLayout
import XCTest
@testable import LayoutServer

final class BinaryFrameEncoderTests: XCTestCase {
    private func layout(_ points: [(Double, Double)]) -> Simulation {
        let cells = points.enumerated().map { CellRecord(id: $0.offset + 1, x: $0.element.0, y: $0.element.1, pinned: false) }
        return try! Simulation(snapshot: LayoutSnapshot(parameters: .defaults, nextID: points.count + 1, cells: cells))
    }

    /// Two cells at (-10, 0) and (10, 5), by hand: the head, the membership, the positions.
    func testBytesAsTheTableSays() {
        let simulation = layout([(-10, 0), (10, 5)])
        var encoder = BinaryFrameEncoder()
        let frame = encoder.encode(simulation, owners: [Ownership.Run(client: "c1", first: 1, last: 2)], at: 1000)
        var head: [UInt8] = [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]  // kind, flags, reserved, tick 0, v 0 (restored)
        head += [0, 0, 0, 0, 0, 0x40, 0x8F, 0x40]  // at = 1000.0
        head += [0, 0, 0x20, 0xC1, 0, 0, 0, 0, 0, 0, 0x20, 0x41, 0, 0, 0xA0, 0x40]  // -10, 0, 10, 5 as f32
        head += [2, 0, 0, 0]  // n
        let owners = Array(#"[["c1",1,2]]"#.utf8)
        let membership: [UInt8] = [1, 0, 0, 0, 2, 0, 0, 0, UInt8(owners.count), 0, 0, 0] + owners
        let positions: [UInt8] = [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]
        XCTAssertEqual(frame.withIDs.bytes, head + membership + positions)
        XCTAssertTrue(frame.withIDs.isBinary)
        var bare = head
        bare[1] = 0
        XCTAssertEqual(frame.withoutIDs.bytes, bare + positions)
        XCTAssertEqual(frame.withoutIDs.count, 40 + 4 * 2)
    }

    func testPositionsComeBackWithinAStepOfTheBox() {
        let points = (0..<500).map { index in (sin(Double(index)) * 3000 + 0.123, cos(Double(index) * 1.7) * 800 - 41) }
        let simulation = layout(points)
        var encoder = BinaryFrameEncoder()
        let bytes = encoder.encode(simulation, at: 0).withoutIDs.bytes
        let box = FrameBox(xs: simulation.xs, ys: simulation.ys)
        let (stepX, stepY) = ((Double(box.maxX) - Double(box.minX)) / 65535, (Double(box.maxY) - Double(box.minY)) / 65535)
        for (index, point) in points.enumerated() {
            let qx = UInt16(bytes[40 + 4 * index]) | UInt16(bytes[41 + 4 * index]) << 8
            let qy = UInt16(bytes[42 + 4 * index]) | UInt16(bytes[43 + 4 * index]) << 8
            XCTAssertEqual(Double(box.minX) + Double(qx) * stepX, point.0, accuracy: stepX / 2 + 1e-9)
            XCTAssertEqual(Double(box.minY) + Double(qy) * stepY, point.1, accuracy: stepY / 2 + 1e-9)
        }
    }

    func testTheBoxHoldsEveryPositionAndDegenerateLayoutsEncode() {
        let box = FrameBox(xs: [0.1, 0.30000000000000004], ys: [1e-8, -1e-8])
        XCTAssertLessThanOrEqual(Double(box.minX), 0.1)
        XCTAssertGreaterThanOrEqual(Double(box.maxX), 0.30000000000000004)
        XCTAssertLessThanOrEqual(Double(box.minY), -1e-8)
        XCTAssertEqual(FrameBox(xs: [], ys: []), FrameBox(xs: [.nan], ys: [1]))
        // One cell, or all on one spot: a zero extent, every q 0.
        var encoder = BinaryFrameEncoder()
        let one = encoder.encode(layout([(7, 7)]), at: 0).withoutIDs.bytes
        XCTAssertEqual(Array(one.suffix(4)), [0, 0, 0, 0])
    }

    func testTheMembershipIsWrittenOnlyWhenItChanges() {
        let simulation = layout([(0, 0), (1, 1)])
        var encoder = BinaryFrameEncoder()
        var asked = 0
        func owners() -> [Ownership.Run] { asked += 1; return [] }
        _ = encoder.encode(simulation, owners: owners(), at: 0)
        _ = encoder.encode(simulation, owners: owners(), at: 0)
        XCTAssertEqual(asked, 1)
        simulation.add(count: 1, spawn: .center)
        XCTAssertEqual(encoder.encode(simulation, owners: owners(), at: 0).withIDs.count, 40 + 3 * 8 + 4 + 2)
        XCTAssertEqual(asked, 2)
    }
}
