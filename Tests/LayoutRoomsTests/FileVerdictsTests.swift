import XCTest
@testable import LayoutRooms

final class FileVerdictsTests: XCTestCase {
    private func stamp(size: Int64 = 10, inode: UInt64 = 1, seconds: Int = 100) -> FileStamp {
        FileStamp(device: 1, inode: inode, size: size, modifiedSeconds: seconds, modifiedNanoseconds: 5)
    }

    func testAVerdictHoldsUntilTheFileChanges() {
        var verdicts = FileVerdicts()
        XCTAssertNil(verdicts.refusal(of: "/s/a.json", stamp: stamp()))
        verdicts.refuse("/s/a.json", stamp: stamp(), why: "corrupt")
        XCTAssertEqual(verdicts.refusal(of: "/s/a.json", stamp: stamp()), "corrupt")
        XCTAssertNil(verdicts.refusal(of: "/s/b.json", stamp: stamp()))
        for changed in [stamp(size: 11), stamp(inode: 2), stamp(seconds: 101)] {
            var copy = verdicts
            XCTAssertNil(copy.refusal(of: "/s/a.json", stamp: changed))
            XCTAssertEqual(copy.count, 0, "a verdict on an older file is forgotten")
        }
        XCTAssertNil(verdicts.refusal(of: "/s/a.json", stamp: nil), "the file is gone")
    }

    func testOnlyTheNewestVerdictsAreKept() {
        var verdicts = FileVerdicts(capacity: 2)
        for name in ["a", "b", "c"] { verdicts.refuse("/s/\(name).json", stamp: stamp(), why: name) }
        XCTAssertEqual(verdicts.count, 2)
        XCTAssertNil(verdicts.refusal(of: "/s/a.json", stamp: stamp()))
        XCTAssertEqual(verdicts.refusal(of: "/s/c.json", stamp: stamp()), "c")
    }

    func testAStampSaysWhatAFileIs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stamp-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.json").path
        XCTAssertNil(FileStamp(path: file))
        try Data("abc".utf8).write(to: URL(fileURLWithPath: file))
        let first = try XCTUnwrap(FileStamp(path: file))
        XCTAssertEqual(first.size, 3)
        try Data("abcd".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertNotEqual(FileStamp(path: file), first)
    }
}
