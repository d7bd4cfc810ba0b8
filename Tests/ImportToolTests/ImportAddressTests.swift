import Foundation
import XCTest
@testable import ImportTool
@testable import LayoutCore

/// `forcelayout import` tells a mistyped room before connecting, in the page's words
/// (Tests/fixtures/room-names.json), and a refused connection in words a person understands.
final class ImportAddressTests: XCTestCase {
    private struct Case: Decodable {
        var typed: String
        var message: String?
        var name: String?
    }

    func testAMistypedRoomInTheAddressIsToldAsThePageTellsIt() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fixtures/room-names.json")
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: file))
        var checked = 0
        for item in cases where item.typed == item.typed.trimmingCharacters(in: .whitespacesAndNewlines) && !item.typed.isEmpty {
            // As typed into --url: percent-encoded, the way the server decodes it.
            let path = "/ws/" + item.typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            switch ImportAddress.room(ofPath: path) {
            case .success(let room): XCTAssertEqual(room.description, item.name, path)
            case .failure(let why): XCTAssertEqual(why.description, item.message, path)
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 25)
        XCTAssertEqual(ImportAddress.room(ofPath: "/ws/Demo"), .failure(.init(description: "Room names are lower case. Try \u{201C}demo\u{201D}.")))
        XCTAssertEqual(ImportAddress.room(ofPath: "/ws/a/b"), .failure(.init(description: "Use only a\u{2013}z, 0\u{2013}9, - and _ (no spaces). Try \u{201C}a-b\u{201D}.")))
    }

    func testTheRoomsOfAddresses() {
        XCTAssertEqual(try ImportAddress.room(ofPath: "/ws").get(), .main)
        XCTAssertEqual(try ImportAddress.room(ofPath: "/ws/demo").get(), RoomName("demo"))
        XCTAssertEqual(try ImportAddress.room(ofPath: "/ws/%64emo").get(), RoomName("demo"), "decoded as the server decodes it")
        XCTAssertEqual(try ImportAddress.room(ofPath: "/ws/demo?x=1").get(), RoomName("demo"))
        XCTAssertEqual(ImportAddress.room(ofPath: "/ws/"), .failure(.init(description: "Type a room name.")))
        XCTAssertEqual(ImportAddress.room(ofPath: "/ws/%20demo"), .failure(.init(description: "Room names have no blanks. Try \u{201C}demo\u{201D}.")))
        for path in ["/", "/wsx", "/r/demo", "/socket"] {
            guard case .failure(let why) = ImportAddress.room(ofPath: path) else { return XCTFail(path) }
            XCTAssertTrue(why.description.contains("/ws/NAME"), why.description)
        }
    }

    func testRefusalsSayWhatWentWrong() {
        let url = "ws://h:1/ws/x"
        XCTAssertTrue(ImportAddress.refusal(status: 404, detail: "HS: ws upgrade response not 101", url: url).contains("not a room of a forcelayout server"))
        XCTAssertTrue(ImportAddress.refusal(status: 200, detail: "", url: url).contains("not a forcelayout server"))
        XCTAssertTrue(ImportAddress.refusal(status: 400, detail: "", url: url).contains("not a forcelayout server"))
        XCTAssertTrue(ImportAddress.refusal(status: 0, detail: "Unable to connect", url: url).hasPrefix("cannot connect to ws://h:1/ws/x: Unable to connect"))
        XCTAssertTrue(ImportAddress.refusal(status: 503, detail: "", url: url).contains("try again later"))
        XCTAssertTrue(ImportAddress.refusal(status: 429, detail: "", url: url).contains("too many rooms"))
        for status in [0, 101, 200, 302, 400, 401, 403, 404, 429, 500, 503] {
            XCTAssertFalse(ImportAddress.refusal(status: status, detail: "HS: ws upgrade response not 101", url: url).contains("HS:"), "\(status)")
        }
        XCTAssertTrue(ImportAddress.hint(closeStatus: AccessClose.notFound).contains("does not exist"))
    }
}
