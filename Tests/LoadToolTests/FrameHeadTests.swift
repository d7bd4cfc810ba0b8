import XCTest
@testable import LoadTool

/// The head of a frame, read from hand-written bytes: v1 JSON text and v2 binary.
final class FrameHeadTests: XCTestCase {
    /// A v2 frame of 2 cells without a membership section, written out byte by byte.
    let v2Frame: [UInt8] = [
        0x01, 0x00, 0x00, 0x00, // kind 1, flags 0, reserved
        0x04, 0x03, 0x02, 0x01, // tick 0x01020304
        0x07, 0x00, 0x00, 0x00, // v 7
        0x00, 0xb8, 0x57, 0x64, 0x4b, 0xaa, 0x79, 0x42, // at 1763700000123.5
        0x00, 0x00, 0x28, 0xc1, 0x00, 0x00, 0xa2, 0xc1, // minX -10.5, minY -20.25
        0x00, 0x00, 0xf0, 0x41, 0x00, 0x00, 0x20, 0x42, // maxX 30, maxY 40
        0x02, 0x00, 0x00, 0x00, // n 2
        0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, // (qx, qy) x 2
    ]

    func testV2HeadFromBytes() {
        XCTAssertEqual(V2FrameHead(v2Frame), V2FrameHead(flags: 0, tick: 0x0102_0304, v: 7, at: 1_763_700_000_123.5, n: 2))
        XCTAssertEqual(FrameHead(v2Frame, binary: true), FrameHead(type: "frame", tick: 16_909_060, at: 1_763_700_000_123.5))
        var membership = v2Frame
        membership[1] = 1
        XCTAssertTrue(V2FrameHead(membership)!.hasMembership)
        XCTAssertFalse(V2FrameHead(v2Frame)!.hasMembership)
    }

    func testV2HeadNeedsAWholeHeadOfKindOne() {
        XCTAssertNil(FrameHead(Array(v2Frame.prefix(39)), binary: true), "cut off")
        var other = v2Frame
        other[0] = 2
        XCTAssertNil(FrameHead(other, binary: true), "not a frame")
        // the same bytes as text are not JSON
        XCTAssertNil(FrameHead(v2Frame))
    }

    func testV1HeadReadsTypeTickAndAt() {
        let frame = FrameHead(Array(#"{"type":"frame","tick":1235,"v":17,"at":1763700000123,"xy":[1,2]}"#.utf8))
        XCTAssertEqual(frame, FrameHead(type: "frame", tick: 1235, at: 1_763_700_000_123))
        XCTAssertEqual(FrameHead(Array(#"{"type":"error","code":"limit"}"#.utf8))?.type, "error")
        // a text message of a v2 connection is read as in v1
        XCTAssertEqual(FrameHead(Array(#"{"type":"stats","tick":9}"#.utf8), binary: false)?.type, "stats")
        XCTAssertNil(FrameHead(Array("not json".utf8)))
        XCTAssertNil(FrameHead(Array(#"{"type":"frame","tick":12"#.utf8))?.tick, "a number cut off is not trusted")
    }

    func testSubprotocols() {
        XCTAssertEqual(WireProtocol.v1.subprotocol, "forcelayout.v1")
        XCTAssertEqual(WireProtocol.v2.subprotocol, "forcelayout.v2")
        XCTAssertNil(WireProtocol(rawValue: 3))
    }
}
