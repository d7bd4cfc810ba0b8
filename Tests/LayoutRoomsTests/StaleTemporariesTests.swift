import Foundation
import XCTest
@testable import LayoutCore
@testable import LayoutRooms

final class StaleTemporariesTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testTemporaryNamesAreRecognisedExactly() {
        XCTAssertEqual(TemporaryName.make(for: "layout.json", pid: 4242), ".layout.json.4242.tmp")
        XCTAssertEqual(TemporaryName.pid(in: ".layout.json.4242.tmp", for: "layout.json"), 4242)
        XCTAssertEqual(TemporaryName.pid(in: TemporaryName.make(for: "a b.json", pid: 1), for: "a b.json"), 1)
        for name in [".layout.json..tmp", ".layout.json.tmp", ".layout.json.-5.tmp", ".layout.json.+5.tmp",
                     ".layout.json.05.tmp", ".layout.json.0.tmp", ".layout.json.5x.tmp", ".layout.json.5.tmp.bak",
                     ".layout.json.99999999999.tmp", ".other.json.5.tmp", "layout.json.5.tmp", ".layout.json.5.TMP",
                     ".layout.json.٣.tmp", ".layout.jsonx.5.tmp"] {
            XCTAssertNil(TemporaryName.pid(in: name, for: "layout.json"), name)
        }
    }

    func testRemovesOnlyOurFilesWhoseWriterIsGoneOrIsUs() throws {
        let files = [".layout.json.100.tmp", ".layout.json.200.tmp", ".layout.json.300.tmp",
                     ".other.json.100.tmp", "layout.json.100.tmp", ".layout.json.100.tmp.bak", "layout.json"]
        for name in files {
            try "x".write(to: directory.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        // A folder and a link by our naming pattern are not files we wrote.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(".layout.json.400.tmp"),
                                                withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent(".layout.json.500.tmp").path,
                                                   withDestinationPath: directory.appendingPathComponent("layout.json").path)
        let removed = StaleTemporaries.remove(beside: directory.appendingPathComponent("layout.json").path,
                                              ourPID: 300, isRunning: { $0 == 200 || $0 == 300 })
        XCTAssertEqual(removed, [".layout.json.100.tmp", ".layout.json.300.tmp"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(),
                       [".layout.json.100.tmp.bak", ".layout.json.200.tmp", ".layout.json.400.tmp", ".layout.json.500.tmp",
                        ".other.json.100.tmp", "layout.json", "layout.json.100.tmp"])
    }

    func testAMissingFolderRemovesNothing() {
        XCTAssertEqual(StaleTemporaries.remove(beside: directory.appendingPathComponent("none/layout.json").path), [])
    }

    func testOurselvesAndPID1AreRunning() {
        XCTAssertTrue(StaleTemporaries.isRunning(getpid()))
        XCTAssertTrue(StaleTemporaries.isRunning(1))
    }
}

final class RoomTemporariesTests: XCTestCase {
    func testEveryRoomFilesTemporariesInAFolderGoInOneListing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rooms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in [".demo.json.100.tmp", ".main.json.200.tmp", ".a.b.json.100.tmp", ".notes.txt.100.tmp",
                     ".demo.json.05.tmp", "demo.json", ".json.100.tmp"] {
            try "x".write(to: directory.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        XCTAssertEqual(TemporaryName.parse(".demo.json.100.tmp")?.stateName, "demo.json")
        XCTAssertEqual(TemporaryName.parse(".a.b.json.100.tmp")?.stateName, "a.b.json")
        XCTAssertNil(TemporaryName.parse(".notes.txt.100.tmp"))
        XCTAssertNil(TemporaryName.parse(".demo.json.05.tmp"))
        let removed = StaleTemporaries.remove(inDirectory: directory.path, ourPID: 1, isRunning: { $0 == 200 })
        XCTAssertEqual(removed, [".a.b.json.100.tmp", ".demo.json.100.tmp"])
    }
}
