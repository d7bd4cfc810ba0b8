import ForceLayout
import XCTest
@testable import LayoutServer

final class FrameEncoderTests: XCTestCase {
    private func simulation(_ cells: [(CellID, Double, Double)]) throws -> Simulation {
        try Simulation(snapshot: LayoutSnapshot(parameters: .defaults, nextID: (cells.last?.0 ?? 0) + 1,
                                                cells: cells.map { CellRecord(id: $0.0, x: $0.1, y: $0.2, pinned: false) }))
    }

    func testTheFullFormCarriesIDsAndOwnersAndTheLeanFormOnlyPositions() throws {
        var encoder = FrameEncoder()
        let layout = try simulation([(1, 10.54, -3), (2, 0, 1e-7), (5, -22.15, 7.44)])
        let owners = [Ownership.Run(client: "c1", first: 1, last: 2), Ownership.Run(client: "c2", first: 5, last: 5)]
        let frame = encoder.encode(layout, owners: owners)
        XCTAssertEqual(frame.withoutIDs.text, #"{"type":"frame","tick":0,"v":0,"xy":[10.5,-3,0,0,-22.2,7.4]}"#)
        XCTAssertEqual(frame.withIDs.text,
                       #"{"type":"frame","tick":0,"v":0,"ids":[1,2,5],"owners":[["c1",1,2],["c2",5,5]],"xy":[10.5,-3,0,0,-22.2,7.4]}"#)
        XCTAssertEqual(frame.version, 0)
    }

    func testTheHeadCarriesTickVersionAndTime() {
        XCTAssertEqual(String(decoding: FrameEncoder.head(tick: 12, version: 3, at: nil), as: UTF8.self),
                       #"{"type":"frame","tick":12,"v":3"#)
        XCTAssertEqual(String(decoding: FrameEncoder.head(tick: 1, version: 1, at: 1_700_000_000_123), as: UTF8.self),
                       #"{"type":"frame","tick":1,"v":1,"at":1700000000123"#)
    }

    func testAnEmptyLayout() throws {
        var encoder = FrameEncoder()
        let frame = encoder.encode(try simulation([]))
        XCTAssertEqual(frame.withIDs.text, #"{"type":"frame","tick":0,"v":0,"ids":[],"owners":[],"xy":[]}"#)
    }

    func testTheMembershipIsWrittenAgainOnlyWhenItChanges() throws {
        var encoder = FrameEncoder()
        let layout = try simulation([(1, 0, 0), (2, 5, 5)])
        var asked = 0
        func owners() -> [Ownership.Run] {
            asked += 1
            return []
        }
        _ = encoder.encode(layout, owners: owners())
        layout.step()
        let moved = encoder.encode(layout, owners: owners())
        XCTAssertEqual(asked, 1, "positions moved, membership did not")
        layout.add(count: 1, spawn: .random)
        let grown = encoder.encode(layout, owners: owners())
        XCTAssertEqual(asked, 2)
        XCTAssertTrue(moved.withIDs.text.contains(#""ids":[1,2],"#))
        XCTAssertTrue(grown.withIDs.text.contains(#""ids":[1,2,3],"#))
    }
}
