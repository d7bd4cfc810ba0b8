import XCTest
@testable import LayoutCore

final class SessionDirectoryTests: XCTestCase {
    private final class Entry: DirectoryEntry {
        let connection: Int
        let client: String
        let roomName: RoomName

        init(_ connection: Int, _ client: String, _ room: String) {
            self.connection = connection
            self.client = client
            roomName = RoomName(room)!
        }
    }

    func testOneInsertFilesASessionEverywhereAndOneRemoveTakesItOutOfEverything() {
        var directory = SessionDirectory<Entry>()
        let a = Entry(1, "c1", "main"), b = Entry(2, "c2", "main"), c = Entry(3, "c3", "demo")
        for entry in [a, b, c] { directory.insert(entry) }
        XCTAssertEqual(directory.count, 3)
        XCTAssertTrue(directory[2] === b)
        XCTAssertTrue(directory.session(of: "c3") === c)
        XCTAssertEqual(Set(directory.members(of: RoomName("main")!).map(\.client)), ["c1", "c2"])
        XCTAssertEqual(Set(directory.rooms.keys), [RoomName("main")!, RoomName("demo")!])

        XCTAssertTrue(directory.remove(3) === c)
        XCTAssertNil(directory[3])
        XCTAssertNil(directory.session(of: "c3"))
        XCTAssertEqual(directory.members(of: RoomName("demo")!).count, 0)
        XCTAssertNil(directory.rooms[RoomName("demo")!], "a room whose last session left is not listed")
        XCTAssertNil(directory.remove(3), "removing twice changes nothing")
        XCTAssertEqual(directory.count, 2)

        directory.remove(1)
        directory.remove(2)
        XCTAssertTrue(directory.isEmpty)
        XCTAssertTrue(directory.rooms.isEmpty)
        XCTAssertNil(directory.session(of: "c1"))
    }

    func testAConnectionMapFindsEachSideFromTheOther() {
        var map = TwoWayMap<Int, String>()
        map.insert(1, "a")
        map.insert(2, "b")
        XCTAssertEqual(map[1], "a")
        XCTAssertEqual(map[right: "b"], 2)
        map.insert(1, "c")  // 1 paired again: "a" finds nothing
        XCTAssertNil(map[right: "a"])
        XCTAssertEqual(map[right: "c"], 1)
        map.insert(3, "b")  // "b" paired again: 2 finds nothing
        XCTAssertNil(map[2])
        XCTAssertEqual(map.remove(3), "b")
        XCTAssertNil(map[right: "b"])
        XCTAssertNil(map.remove(3))
        XCTAssertEqual(map.count, 1)
    }
}
