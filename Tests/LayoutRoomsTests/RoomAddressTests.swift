import XCTest
@testable import LayoutCore
@testable import LayoutRooms

final class RoomAddressTests: XCTestCase {
    func testSocketPathsNameARoomOrNothing() {
        XCTAssertEqual(RoomAddress.socket("/ws"), .main)
        XCTAssertEqual(RoomAddress.socket("/ws/main"), .main)
        XCTAssertEqual(RoomAddress.socket("/ws/team-7"), RoomName("team-7"))
        for path in ["/", "/ws/", "/ws/A", "/ws/a/b", "/ws/..", "/wsx", "/ws//a", "/ws/-a", "/r/a", "",
                     "/ws/" + String(repeating: "a", count: 41)] {
            XCTAssertNil(RoomAddress.socket(path), path)
        }
    }

    func testUnderRAName() {
        XCTAssertEqual(RoomAddress.page("/demo"), .room(RoomName("demo")!))
        XCTAssertEqual(RoomAddress.page("/main.js"), .file("main.js"))
        XCTAssertEqual(RoomAddress.page("/Demo"), .file("Demo"))
        XCTAssertEqual(RoomAddress.page("/a/b.js"), .file("a/b.js"))
        XCTAssertEqual(RoomAddress.page(""), .none)
        XCTAssertEqual(RoomAddress.page("/"), .none)
    }
}

final class CellBudgetTests: XCTestCase {
    func testTakesWithinTheLimitOnly() {
        let budget = CellBudget(limit: 10)
        XCTAssertTrue(budget.take(6))
        XCTAssertFalse(budget.take(5))
        XCTAssertEqual(budget.total, 6)
        XCTAssertTrue(budget.take(4))
        budget.give(3)
        XCTAssertEqual(budget.total, 7)
        budget.force(8)
        XCTAssertEqual(budget.total, 15)
        XCTAssertFalse(budget.take(1))
    }

    func testConcurrentTakersNeverPassTheLimit() {
        let budget = CellBudget(limit: 1000)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 { _ = budget.take(1) }
        }
        XCTAssertEqual(budget.total, 1000)
    }
}

final class RoomFilesTests: XCTestCase {
    func testPathsAndTheRoomsOnDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roomfiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["demo.json", "main.json", "Bad.json", "notes.txt", ".hidden.json", "a.b.json"] {
            try "{}".write(to: directory.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        let inFolder = RoomFiles(directory: directory.path, mainFile: nil)
        XCTAssertEqual(inFolder.path(for: RoomName("demo")!), directory.path + "/demo.json")
        XCTAssertEqual(inFolder.stored().sorted(), [RoomName("demo")!, .main])

        let legacy = directory.appendingPathComponent("layout.json").path
        let withMain = RoomFiles(directory: directory.path, mainFile: legacy)
        XCTAssertEqual(withMain.path(for: .main), legacy)
        // main.json is not main's file any more, and layout.json does not exist yet.
        XCTAssertEqual(withMain.stored().sorted(), [RoomName("demo")!])

        let none = RoomFiles(directory: nil, mainFile: nil)
        XCTAssertTrue(none.isEmpty)
        XCTAssertNil(none.path(for: .main))
        XCTAssertEqual(none.stored(), [])
    }
}
