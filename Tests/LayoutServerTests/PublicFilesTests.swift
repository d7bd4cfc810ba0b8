import Foundation
import XCTest
@testable import LayoutServer

final class PublicFilesTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("public-\(UUID().uuidString)")
        let files = FileManager.default
        try files.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("page".utf8).write(to: folder.appendingPathComponent("index.html"))
        try Data("inner".utf8).write(to: folder.appendingPathComponent("sub/a.txt"))
        try files.createSymbolicLink(atPath: folder.appendingPathComponent("leak").path, withDestinationPath: "/etc/hostname")
        try files.createSymbolicLink(atPath: folder.appendingPathComponent("etc").path, withDestinationPath: "/etc")
        try files.createSymbolicLink(atPath: folder.appendingPathComponent("inside").path, withDestinationPath: "sub/a.txt")
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    func testFilesInsideAreServed() {
        let files = PublicFiles(root: folder.path)
        for path in ["/", "/index.html", "/sub/a.txt", "/inside", "/missing.js"] {
            XCTAssertTrue(files.allows(path), path)
        }
    }

    func testLinksLeadingOutsideAreRefused() {
        let files = PublicFiles(root: folder.path)
        for path in ["/leak", "/etc/hostname", "/etc/", "leak"] {
            XCTAssertFalse(files.allows(path), path)
        }
    }

    func testAFolderReachedThroughALinkIsItsOwnRoot() throws {
        let link = folder.deletingLastPathComponent().appendingPathComponent("link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: folder.path)
        defer { try? FileManager.default.removeItem(at: link) }
        let files = PublicFiles(root: link.path)
        XCTAssertTrue(files.allows("/sub/a.txt"))
        XCTAssertFalse(files.allows("/leak"))
    }
}
