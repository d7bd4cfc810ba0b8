import Foundation
import Logging
import Synchronization
import XCTest
@testable import LayoutServer

/// `--log-format json`: one object a line, its keys stable, text escaped, metadata sorted, and
/// the handler's level and metadata applied.
final class JSONLogHandlerTests: XCTestCase {
    func testALineIsOneObjectWithItsKeysInOrder() throws {
        let time = Date(timeIntervalSince1970: 1_795_000_000.25)
        let bytes = JSONLogHandler.line(time: time, level: .warning, label: "forcelayout",
                                        message: "room \"a\\b\"\nnext", metadata: [("room", "demo"), ("client", "c7")])
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual(text, #"{"time":"2026-11-18T11:06:40.250Z","level":"warning","label":"forcelayout","message":"room \"a\\b\"\nnext","metadata":{"client":"c7","room":"demo"}}"# + "\n")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        XCTAssertEqual(object["message"] as? String, "room \"a\\b\"\nnext")
        XCTAssertFalse(String(decoding: JSONLogHandler.line(time: time, level: .info, label: "x", message: "m", metadata: []), as: UTF8.self)
            .contains("metadata"), "no metadata: no key")
    }

    func testTheHandlerWritesLinesAtItsLevelWithItsMetadata() {
        let lines = Mutex<[String]>([])
        var handler = JSONLogHandler(label: "t") { bytes in lines.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) } }
        handler.logLevel = .notice
        handler[metadataKey: "node"] = "a"
        var logger = Logger(label: "t", factory: { _ in handler })
        logger.logLevel = .notice
        logger.info("left out")
        logger.notice("kept", metadata: ["room": "demo"])
        let written = lines.withLock { $0 }
        XCTAssertEqual(written.count, 1)
        XCTAssertTrue(written[0].hasSuffix(#""level":"notice","label":"t","message":"kept","metadata":{"node":"a","room":"demo"}}"# + "\n"), written[0])
    }
}
