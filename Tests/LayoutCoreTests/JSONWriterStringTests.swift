import XCTest
@testable import LayoutCore

/// `JSONWriter.string`: runs without an escape copied whole, each byte JSON must escape
/// escaped wherever it falls, and what it writes read back as the same text.
final class JSONWriterStringTests: XCTestCase {
    private func written(_ text: String) -> String {
        var writer = JSONWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    func testEscapesAtTheStartInTheMiddleAndAtTheEnd() {
        XCTAssertEqual(written(""), #""""#)
        XCTAssertEqual(written("Valjean"), #""Valjean""#)
        XCTAssertEqual(written("\"quoted\""), #""\"quoted\"""#)
        XCTAssertEqual(written("a\\b"), #""a\\b""#)
        XCTAssertEqual(written("line\n"), #""line\n""#)
        XCTAssertEqual(written("\r\t"), #""\r\t""#)
        XCTAssertEqual(written("\u{0}x\u{1F}"), #""\u0000x\u001f""#)
        XCTAssertEqual(written("héllo 😀 \u{7F}"), "\"héllo 😀 \u{7F}\"", "only quotes, backslashes and controls are escaped")
    }

    func testEveryTextReadsBackAsItself() throws {
        var texts = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["", "cell 12", "a\"b\\c\nd", "\u{2028}é€😀", String(repeating: "x\"", count: 300)]
        for text in texts {
            XCTAssertEqual(try JSONParser.parse(Array(written(text).utf8)), .string(text), "\(Array(text.utf8))")
        }
    }
}
