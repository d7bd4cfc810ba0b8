import XCTest
@testable import LayoutCore

final class NumberFormattingTests: XCTestCase {
    private func format(_ value: Double) -> String {
        var bytes: [UInt8] = []
        NumberFormatting.appendPosition(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func testTenthsBelowAThousandWithoutTrailingZerosOrExponents() {
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
        XCTAssertEqual(format(999.9), "999.9")
        XCTAssertEqual(format(-999.94), "-999.9")
        XCTAssertEqual(format(1e-9), "0")
        XCTAssertEqual(format(.nan), "0")
    }

    func testWholeUnitsFromAThousand() {
        XCTAssertEqual(format(999.95), "1000")
        XCTAssertEqual(format(1000.4), "1000")
        XCTAssertEqual(format(-1234.5), "-1235")
        XCTAssertEqual(format(6324.49), "6324")
        XCTAssertEqual(format(123456.78), "123457")
        XCTAssertEqual(format(1e20), "100000000000000")
        XCTAssertEqual(format(-.infinity), "-100000000000000")
    }

    /// Within 0.05 below 1000 and within 0.5 (0.05% of the value) from there on.
    func testEveryFormattedValueParsesBackWithinItsResolution() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let magnitude = pow(10, Double.random(in: -2...6, using: &random))
            let value = Bool.random(using: &random) ? magnitude : -magnitude
            let text = format(value)
            XCTAssertFalse(text.contains("e") || text.contains("E"), text)
            let parsed = try XCTUnwrap(Double(text))
            let error = abs(parsed - value)
            XCTAssertLessThanOrEqual(error, abs(value) < 999.95 ? 0.05 + 1e-9 : 0.5 + 1e-9, text)
            XCTAssertLessThanOrEqual(error, max(0.05 + 1e-9, abs(value) * 5e-4), text)
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

    func testWriterIntegersAreTheirDecimalDigits() {
        let values: [Int64] = [0, 7, 9, 10, 11, 99, 100, 12_345, -1, -9, -10, -987_654_321, .max, .min, 1 << 53]
        for value in values {
            var writer = JSONWriter()
            writer.integer(value)
            XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), String(value))
        }
        var writer = JSONWriter()
        writer.integer(UInt64.max)
        writer.raw(",")
        writer.integer(UInt8(200))
        writer.raw(",")
        writer.integers([3, -40, 500])
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), "18446744073709551615,200,[3,-40,500]")
    }
}
