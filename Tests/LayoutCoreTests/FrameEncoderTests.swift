import ForceLayout
import XCTest
@testable import LayoutCore

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

    func testAFramesSizeIsCountedExactlyWithoutWritingIt() throws {
        var generator = SystemRandomNumberGenerator()
        let edges: [Double] = [0, -0, 0.04, 0.05, -0.05, -0.04, 0.95, 9.95, 99.95, 999.94, 999.95, -999.95, 1000, -1000.4,
                               12345.5, -1e13, NumberFormatting.limit * 2, -.infinity, .infinity, .nan, 1e-300]
        var xs = edges, ys = edges.reversed() as [Double]
        for _ in 0..<2000 {
            let scale = [1.0, 10, 1000, 1e6, 1e15].randomElement(using: &generator)!
            xs.append(Double.random(in: -scale...scale, using: &generator))
            ys.append(Double.random(in: -scale...scale, using: &generator))
        }
        for count in [0, 1, 2, xs.count] {
            let (x, y) = (Array(xs.prefix(count)), Array(ys.prefix(count)))
            XCTAssertEqual(FrameEncoder.positionsCount(xs: x, ys: y), FrameEncoder.positions(xs: x, ys: y).count, "\(count) cells")
        }
        for value in xs { XCTAssertEqual(NumberFormatting.positionLength(value), FrameEncoder.positions(xs: [value], ys: [0]).count - 11, "\(value)") }
    }

    func testADeferredTextFrameIsWrittenOnceAtTheFirstDemandWithTheSameBytes() throws {
        let layout = try simulation([(1, 10.54, -3), (2, 1234.5, 6)])
        let owners = [Ownership.Run(client: "c1", first: 1, last: 2)]
        var eager = FrameEncoder(), lazy = FrameEncoder()
        let written = eager.encode(layout, owners: owners, at: 42)
        let deferred = TextFrame(deferring: lazy.source(layout, owners: owners, at: 42))
        XCTAssertFalse(deferred.isWritten)
        XCTAssertEqual(deferred.bareCount, written.withoutIDs.count)
        layout.step()  // the positions it writes are those it was made with
        let first = try XCTUnwrap(deferred.frame), again = try XCTUnwrap(deferred.frame)
        XCTAssertEqual(first.withIDs.bytes, written.withIDs.bytes)
        XCTAssertEqual(first.withoutIDs.bytes, written.withoutIDs.bytes)
        XCTAssertTrue(deferred.isWritten)
        XCTAssertTrue(first.withoutIDs === again.withoutIDs, "written once")
        XCTAssertTrue(TextFrame(written).isWritten)
    }
}
