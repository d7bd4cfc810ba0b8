import XCTest
@testable import LayoutServer

final class NumberFormattingTests: XCTestCase {
    private func format(_ value: Double) -> String {
        var bytes: [UInt8] = []
        NumberFormatting.appendOneDecimal(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func testOneDecimalWithoutTrailingZerosOrExponents() {
        XCTAssertEqual(format(0), "0")
        XCTAssertEqual(format(-0.0), "0")
        XCTAssertEqual(format(-0.04), "0")
        XCTAssertEqual(format(10), "10")
        XCTAssertEqual(format(-3), "-3")
        XCTAssertEqual(format(10.5), "10.5")
        XCTAssertEqual(format(22.14), "22.1")
        XCTAssertEqual(format(22.16), "22.2")
        XCTAssertEqual(format(-0.05), "-0.1")
        XCTAssertEqual(format(0.96), "1")
        XCTAssertEqual(format(123456.78), "123456.8")
        XCTAssertEqual(format(1e-9), "0")
        XCTAssertEqual(format(1e20), "100000000000000")
        XCTAssertEqual(format(.nan), "0")
        XCTAssertEqual(format(-.infinity), "-100000000000000")
    }

    func testEveryFormattedValueParsesBackWithinAHalfTenth() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let value = Double.random(in: -1e6...1e6, using: &random)
            let text = format(value)
            XCTAssertFalse(text.contains("e") || text.contains("E"), text)
            let parsed = try XCTUnwrap(Double(text))
            XCTAssertLessThanOrEqual(abs(parsed - value), 0.05 + 1e-9, text)
        }
    }

    func testWriterNumbersAreValidJSON() throws {
        for value in [0.02, 10, 1e-7, 1e6, 0.3, -2.5, 1e300] {
            var writer = JSONWriter()
            writer.number(value)
            XCTAssertEqual(try JSONParser.parse(writer.bytes), .number(value))
        }
    }

    func testWriterEscapesStrings() throws {
        var writer = JSONWriter()
        writer.string("a\"b\\c\n\u{01}é")
        XCTAssertEqual(try JSONParser.parse(writer.bytes), .string("a\"b\\c\n\u{01}é"))
    }
}
