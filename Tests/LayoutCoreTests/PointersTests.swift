import ForceLayout
import XCTest
@testable import LayoutCore

/// The room's pointers (`Pointers`): each transition says what to send, and only what changed.
final class PointersTests: XCTestCase {
    func testPointingMovingAndStopping() {
        var pointers = Pointers()
        XCTAssertEqual(pointers.point(Pointer(client: "c2", name: "Ana", id: 5)), [Pointer(client: "c2", name: "Ana", id: 5)])
        XCTAssertEqual(pointers.point(Pointer(client: "c1", id: 3)), [Pointer(client: "c1", id: 3)])
        // The same cell under the same name again: nothing to send.
        XCTAssertEqual(pointers.point(Pointer(client: "c2", name: "Ana", id: 5)), [])
        // A new name, or a new cell, is news.
        XCTAssertEqual(pointers.point(Pointer(client: "c2", name: "Anna", id: 5)), [Pointer(client: "c2", name: "Anna", id: 5)])
        XCTAssertEqual(pointers.point(Pointer(client: "c2", name: "Anna", id: 6)), [Pointer(client: "c2", name: "Anna", id: 6)])
        XCTAssertEqual(pointers.current, [Pointer(client: "c1", id: 3), Pointer(client: "c2", name: "Anna", id: 6)])
        // Stopping ends it, name and all; stopping again sends nothing.
        XCTAssertEqual(pointers.point(Pointer(client: "c2", name: "Anna", id: nil)), [Pointer(client: "c2", id: nil)])
        XCTAssertEqual(pointers.point(Pointer(client: "c2", id: nil)), [])
        XCTAssertEqual(pointers.current, [Pointer(client: "c1", id: 3)])
    }

    func testLeavingEndsAPointerAndALatePointOfAClientThatLeftIsIgnored() {
        var pointers = Pointers()
        _ = pointers.point(Pointer(client: "c1", id: 3))
        XCTAssertEqual(pointers.leave("c1"), [Pointer(client: "c1", id: nil)])
        XCTAssertEqual(pointers.leave("c1"), [])
        XCTAssertEqual(pointers.leave("c9"), [])
        // Its `point` was still queued when it left: it must not point for good.
        XCTAssertEqual(pointers.point(Pointer(client: "c1", id: 4)), [])
        XCTAssertEqual(pointers.point(Pointer(client: "c9", id: 4)), [])
        XCTAssertTrue(pointers.isEmpty)
        // The memory of who left is bounded: the oldest are let go.
        for number in 0..<(Pointers.departedKept + 1) { _ = pointers.leave("d\(number)") }
        XCTAssertEqual(pointers.point(Pointer(client: "d0", id: 1)), [Pointer(client: "d0", id: 1)])
        XCTAssertEqual(pointers.point(Pointer(client: "d1", id: 1)), [])
    }

    func testRemovedCellsEndTheirPointers() {
        var pointers = Pointers()
        for (client, id) in [("c1", 1), ("c2", 2), ("c3", 1)] { _ = pointers.point(Pointer(client: client, id: id)) }
        XCTAssertEqual(pointers.keep { $0 != 1 }, [Pointer(client: "c1", id: nil), Pointer(client: "c3", id: nil)])
        XCTAssertEqual(pointers.keep { $0 != 1 }, [])
        XCTAssertEqual(pointers.current, [Pointer(client: "c2", id: 2)])
        XCTAssertEqual(pointers.keep { _ in false }, [Pointer(client: "c2", id: nil)])
    }

    /// A relay mirrors the owner's messages as they are, and takes a whole set in place of its own.
    func testMirroringAndReplacingTheWholeSet() {
        var relay = Pointers()
        _ = relay.leave("c1")  // a relay does not judge who left: the owner did
        XCTAssertEqual(relay.mirror(Pointer(client: "c1", id: 2)), [Pointer(client: "c1", id: 2)])
        XCTAssertEqual(relay.mirror(Pointer(client: "c2", name: "B", id: 3)), [Pointer(client: "c2", name: "B", id: 3)])
        let sent = relay.replace(with: [Pointer(client: "c2", name: "B", id: 3), Pointer(client: "c4", id: 7),
                                        Pointer(client: "c5", id: nil)])
        XCTAssertEqual(sent, [Pointer(client: "c1", id: nil), Pointer(client: "c4", id: 7)])
        XCTAssertEqual(relay.current, [Pointer(client: "c2", name: "B", id: 3), Pointer(client: "c4", id: 7)])
        XCTAssertEqual(relay.replace(with: []), [Pointer(client: "c2", id: nil), Pointer(client: "c4", id: nil)])
    }

    func testDisplayNames() {
        XCTAssertEqual(Pointer.name("  Ana \t"), .success("Ana"))
        XCTAssertEqual(Pointer.name(String(repeating: "é", count: 32)), .success(String(repeating: "é", count: 32)))
        XCTAssertEqual(Pointer.name("a b"), .success("a b"))
        for bad in ["", "   ", String(repeating: "x", count: 33), "a\u{7}b", "a\nb c"] {
            guard case .failure = Pointer.name(bad) else { return XCTFail("\(bad.debugDescription) taken as a name") }
        }
        // Code points, not Characters: a letter with 40 combining marks is 41 of them.
        guard case .failure = Pointer.name("e" + String(repeating: "\u{301}", count: 40)) else { return XCTFail("combining marks") }
    }

    func testThePointerMessageAndHello() throws {
        XCTAssertEqual(String(decoding: ServerMessages.pointer(Pointer(client: "c3", name: "Ana \"A\"", id: 7)), as: UTF8.self),
                       #"{"type":"pointer","client":"c3","name":"Ana \"A\"","id":7}"#)
        XCTAssertEqual(String(decoding: ServerMessages.pointer(Pointer(client: "c3@b", id: nil)), as: UTF8.self),
                       #"{"type":"pointer","client":"c3@b","id":null}"#)
        let standing = Standing(role: .viewer, access: .view, links: nil)
        let name = try XCTUnwrap(RoomName("demo"))
        let pointing = try JSONParser.parse(ServerMessages.hello(
            client: "c7", room: name, clients: 2, standing: standing, status: LayoutStatus(), limits: Limits(), events: [],
            pointers: [Pointer(client: "c1", name: "Ana", id: 4), Pointer(client: "c2", id: 5)]))
        XCTAssertEqual(pointing["pointers"], try JSONParser.parse(Array(
            #"[{"type":"pointer","client":"c1","name":"Ana","id":4},{"type":"pointer","client":"c2","id":5}]"#.utf8)))
        let none = try JSONParser.parse(ServerMessages.hello(client: "c7", room: name, clients: 1, standing: standing,
                                                             status: LayoutStatus(), limits: Limits(), events: []))
        XCTAssertNil(none["pointers"])
    }
}
