import XCTest
@testable import LayoutCore

/// What hostile input found (Tests/e2e/test_hostile.py and the fuzz target,
/// Sources/forcelayout-fuzz): each test pins down one fix.
final class HostileInputTests: XCTestCase {
    private let decoder = MessageDecoder(limits: Limits())

    private func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ProtocolError? {
        switch decoder.decode(Array(text.utf8)) {
        case .success(let request):
            XCTFail("accepted as \(request)", file: file, line: line)
            return nil
        case .failure(let error):
            return error
        }
    }

    /// One Character of 5001 code points passed "at most 64 characters" and was echoed whole.
    func testRefIsCountedInCodePoints() throws {
        let grapheme = "e" + String(repeating: "\u{301}", count: 300)
        XCTAssertEqual(grapheme.count, 1)
        let refused = try XCTUnwrap(error(#"{"type":"clear","ref":"\#(grapheme)"}"#))
        XCTAssertEqual(refused.code, .badRequest)
        XCTAssertNil(refused.ref)
        let longest = String(repeating: "😀", count: 64)
        guard case .success(let request) = decoder.decode(Array(#"{"type":"clear","ref":"\#(longest)"}"#.utf8)) else {
            return XCTFail("64 code points refused")
        }
        XCTAssertEqual(request.ref, longest)
        XCTAssertEqual(error(#"{"type":"clear","ref":"\#(longest)😀"}"#)?.code, .badRequest)
    }

    /// Error messages echoed up to the whole message (one grapheme cluster of combining marks
    /// passed `prefix(64)`), with newlines that forged lines in the server's log.
    func testErrorMessagesQuoteShortEscapedExcerpts() throws {
        let forged = "\nlistening on http://127.0.0.1:1/\r\u{1B}[2J\u{202E}"
        let heavy = "x" + String(repeating: "\u{301}", count: 20000)
        for evil in [forged, heavy, forged + heavy, String(repeating: "\"\\", count: 5000)] {
            let text = jsonString(evil)
            for message in [#"{"type":\#(text)}"#, #"{"type":"add","spawn":\#(text)}"#,
                            #"{"type":"params",\#(text):1}"#, #"{"type":"clear",\#(text):1}"#,
                            #"{"type":"subscribe","kinds":[\#(text)]}"#, #"{"type":"clear",\#(text):1,\#(text):2}"#] {
                let refused = try XCTUnwrap(error(message))
                XCTAssertLessThanOrEqual(refused.message.utf8.count, 400, message.prefix(40) + "…")
                XCTAssertFalse(refused.message.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" },
                               refused.message)
            }
        }
    }

    func testExcerpt() {
        XCTAssertEqual(Excerpt.quoted("left"), #""left""#)
        XCTAssertEqual(Excerpt.quoted("a\"b\\c\nd\re\tf\u{0}g\u{7F}h\u{85}i\u{2028}j\u{202E}k"),
                       #""a\"b\\c\nd\re\tf\u0000g\u007fh\u0085i\u2028j\u202ek""#)
        XCTAssertEqual(Excerpt.quoted("abcdef", limit: 3), #""abc…""#)
        XCTAssertEqual(Excerpt.quoted("abc", limit: 3), #""abc""#)
        XCTAssertEqual(Excerpt.quoted("e\u{301}\u{301}\u{301}", limit: 2), "\"e\u{301}…\"")
        XCTAssertEqual(Excerpt.quoted("héllo 😀"), "\"héllo 😀\"")
    }

    private func jsonString(_ text: String) -> String {
        var writer = JSONWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
