import XCTest
@testable import LayoutCore

final class JSONParserTests: XCTestCase {
    func testParsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#" {"a": [1, -2.5e2, true, false, null, "x\u00e9\n"], "b": {}} "#)
        XCTAssertEqual(value["a"], .array([.number(1), .number(-250), .bool(true), .bool(false), .null, .string("xé\n")]))
        XCTAssertEqual(value["b"], .object([]))
    }

    func testRejectsDuplicateKeys() {
        XCTAssertThrowsError(try JSONParser.parse(#"{"type":"add","type":"clear"}"#)) { error in
            XCTAssertTrue("\(error)".contains("duplicate key"))
        }
    }

    func testRejectsDeepNestingWithoutRecursingFar() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONParser.parse(deep)) { error in
            XCTAssertTrue("\(error)".contains("nesting"))
        }
        let fine = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        XCTAssertNoThrow(try JSONParser.parse(fine))
    }

    func testRejectsInvalidUTF8() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22]] {
            XCTAssertThrowsError(try JSONParser.parse(bytes), "\(bytes)")
        }
        XCTAssertEqual(try JSONParser.parse([0x22, 0xE2, 0x82, 0xAC, 0x22]), .string("€"))
    }

    func testSurrogatePairs() throws {
        XCTAssertEqual(try JSONParser.parse(#""\ud83d\ude00""#), .string("😀"))
        XCTAssertThrowsError(try JSONParser.parse(#""\ud83d""#))
        XCTAssertThrowsError(try JSONParser.parse(#""\ude00""#))
    }

    func testRejectsMalformedDocuments() {
        for text in ["", " ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "01", "1.", ".5", "-", "+1", "1e", "tru",
                     "nul", "\"abc", "\"a\tb\"", "{} {}", "[1] x", "'a'", "{a:1}", "\"\\x\"", "NaN", "Infinity"] {
            XCTAssertThrowsError(try JSONParser.parse(text), text)
        }
    }

    func testHugeNumbersBecomeInfinityForValidationToReject() throws {
        XCTAssertEqual(try JSONParser.parse("1e400"), .number(.infinity))
        XCTAssertEqual(try JSONParser.parse("-1e400"), .number(-.infinity))
    }
}
