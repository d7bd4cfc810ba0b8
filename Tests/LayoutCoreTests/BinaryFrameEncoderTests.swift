import ForceLayout
import XCTest
@testable import LayoutCore

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

    /// The worked example of docs/protocol.md: cells 1, 2, 5 at (10.5, -3), (0, 0), (22.1, 7.4).
    func testTheWorkedExampleOfTheProtocolDocument() throws {
        let cells = [CellRecord(id: 1, x: 10.5, y: -3, pinned: false), CellRecord(id: 2, x: 0, y: 0, pinned: false),
                     CellRecord(id: 5, x: 22.1, y: 7.4, pinned: false)]
        let simulation = try Simulation(snapshot: LayoutSnapshot(parameters: .defaults, nextID: 6, cells: cells))
        var encoder = BinaryFrameEncoder()
        let runs = [Ownership.Run(client: "c1", first: 1, last: 2), Ownership.Run(client: "c3", first: 5, last: 5)]
        let bytes = encoder.encode(simulation, owners: runs, at: 1_763_700_000_123).withIDs.bytes
        let hex = "01 01 00 00 00 00 00 00 00 00 00 00 00 b0 57 64 4b aa 79 42 00 00 00 00 00 00 40 c0 cd cc b0 41"
            + " cd cc ec 40 03 00 00 00 01 00 00 00 02 00 00 00 05 00 00 00 17 00 00 00 5b 5b 22 63 31 22 2c 31"
            + " 2c 32 5d 2c 5b 22 63 33 22 2c 35 2c 35 5d 5d a1 79 00 00 00 00 d8 49 ff ff ff ff"
        // The document's frame has tick 1235 and v 17 (bytes 4-11); a restored layout starts at 0.
        var expected = hex.split(separator: " ").map { UInt8($0, radix: 16)! }
        XCTAssertEqual(bytes, expected)
        expected[4...11] = [0xd3, 0x04, 0, 0, 0x11, 0, 0, 0]
        XCTAssertEqual(expected.count, 91)
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
