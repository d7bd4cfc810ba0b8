import Foundation
import XCTest
@testable import LayoutCore

/// What a mistyped room name is told, in the page's words: Tests/fixtures/room-names.json,
/// written from the page's own `checkRoomName` (Tests/web/roomnames.test.mjs).
final class RoomNameCheckTests: XCTestCase {
    private struct Case: Decodable {
        var typed: String
        var message: String?
        var suggestion: String?
        var name: String?
    }

    private func cases() throws -> [Case] {
        let file = GoldenFixturesTests.folder.appendingPathComponent("room-names.json")
        return try JSONDecoder().decode([Case].self, from: Data(contentsOf: file))
    }

    func testEveryCaseOfTheFixtureIsToldAsThePageTellsIt() throws {
        let cases = try cases()
        XCTAssertGreaterThan(cases.count, 30)
        for item in cases {
            switch RoomNameCheck(item.typed) {
            case .valid(let name):
                XCTAssertNil(item.message, "\(item.typed.debugDescription) is valid here, not on the page")
                XCTAssertEqual(name.description, item.name, item.typed.debugDescription)
            case .invalid(let message, let suggestion):
                XCTAssertEqual(message, item.message, item.typed.debugDescription)
                XCTAssertEqual(suggestion?.description, item.suggestion, item.typed.debugDescription)
            }
        }
    }

    func testAnAddressIsNotTrimmed() {
        XCTAssertEqual(RoomNameCheck(address: "demo"), .valid(RoomName("demo")!))
        XCTAssertEqual(RoomNameCheck(address: " demo"), .invalid(message: "Room names have no blanks. Try \u{201C}demo\u{201D}.",
                                                                 suggestion: RoomName("demo")))
        XCTAssertEqual(RoomNameCheck(address: "Demo"), RoomNameCheck("Demo"))
        XCTAssertEqual(RoomNameCheck(" demo"), .valid(RoomName("demo")!), "typed into the switcher: trimmed")
    }

    func testASuggestionIsAlwaysAValidNameOrNone() {
        for text in ["Hello World", "  --A--  ", "r/demo", "a.b.c", "\u{00C9}t\u{00E9} 2025", String(repeating: "x", count: 39) + " y",
                     "\u{65E5}\u{672C}", "__", String(repeating: "A", count: 80), "\u{0301}", "-_-", "\u{1F600}"] {
            if let suggestion = RoomNameCheck.suggestion(for: text) {
                XCTAssertNotNil(RoomName(suggestion.description), text)
            }
        }
        XCTAssertNil(RoomNameCheck.suggestion(for: "\u{65E5}\u{672C}"))
    }
}

/// The 404 page of a mistyped `/r/NAME`: the sentence, a link to the name meant, nothing of
/// the address unescaped.
final class MistypedRoomPageTests: XCTestCase {
    private func page(_ typed: String) -> String { String(decoding: MistypedRoomPage.html(typed: typed), as: UTF8.self) }

    func testItSaysWhatIsWrongAndLinksTheSuggestion() {
        let demo = page("Demo")
        XCTAssertTrue(demo.contains(#"<p id="why">Room names are lower case. Try <a href="/r/demo">“demo”</a>.</p>"#), demo)
        XCTAssertTrue(demo.contains("<code>/r/Demo</code>"), demo)
        XCTAssertTrue(page("Main").contains(#"<a href="/">“main”</a>"#), "main's address is /")
        let none = page("!!!")
        XCTAssertTrue(none.contains(#"<p id="why">Use only a–z, 0–9, - and _ (no spaces).</p>"#), none)
        XCTAssertTrue(page("").contains(#"<p id="why">Type a room name.</p>"#))
        XCTAssertTrue(page(" demo").contains(#"Try <a href="/r/demo">“demo”</a>."#))
    }

    func testTheAddressIsEscapedAndCut() {
        let script = page("<script>alert('x')</script>&\"")
        XCTAssertFalse(script.contains("<script"), script)
        XCTAssertTrue(script.contains("<code>/r/&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;</code>"), script)
        XCTAssertTrue(script.contains(#"Try <a href="/r/script-alert-x-script">“script-alert-x-script”</a>."#), script)
        let long = page(String(repeating: "<", count: 500))
        XCTAssertEqual(long.components(separatedBy: "&lt;").count - 1, 100, "the echo is cut to 100 characters")
        XCTAssertTrue(page("a\u{0}b").contains("/r/a\u{FFFD}b"))
    }
}
