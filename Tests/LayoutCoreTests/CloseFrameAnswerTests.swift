import XCTest
@testable import LayoutCore

final class CloseFrameAnswerTests: XCTestCase {
    private func payload(_ code: UInt16, _ reason: [UInt8] = []) -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + reason
    }

    private func answer(_ bytes: [UInt8]) -> CloseFrameAnswer { CloseFrameAnswer(payload: bytes) }

    func testEveryCodeClass() {
        let valid: [UInt16] = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014,
                               3000, 3999, 4000, 4999]
        for code in valid {
            XCTAssertEqual(answer(payload(code)), .echo, "\(code)")
            XCTAssertEqual(answer(payload(code, Array("bye".utf8))), .echo, "\(code) with a reason")
        }
        let invalid: [UInt16] = [0, 1, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535]
        for code in invalid {
            XCTAssertEqual(answer(payload(code)), .fail(status: 1002, reason: "invalid close code \(code)"), "\(code)")
        }
    }

    func testTheWholeCodeSpaceMatchesTheRanges() {
        let validCount = (0...UInt16.max).filter { CloseFrameAnswer.isValid(code: $0) }.count
        XCTAssertEqual(validCount, 4 + 8 + 2000)
    }

    func testEmptyPayloadIsEchoed() {
        XCTAssertEqual(answer([]), .echo)
    }

    func testOneBytePayloadIsAProtocolError() {
        for byte: UInt8 in [0x00, 0x03, 0xE8, 0xFF] {
            XCTAssertEqual(answer([byte]), .fail(status: 1002, reason: "close frame with a 1-byte payload"))
        }
    }

    func testReasonMustBeUTF8() {
        let notUTF8: [[UInt8]] = [
            [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98],  // a stray byte, cut characters
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF],                   // overlong encodings
            [0xED, 0xA0, 0x80],                                 // a UTF-16 surrogate
            [0xF4, 0x90, 0x80, 0x80],                           // above U+10FFFF
            Array("ok".utf8) + [0x80],
        ]
        for reason in notUTF8 {
            XCTAssertEqual(answer(payload(1000, reason)), .fail(status: 1007, reason: "close reason is not UTF-8"),
                           "\(reason)")
        }
        XCTAssertEqual(answer(payload(1000, Array("é€😀 au revoir".utf8))), .echo)
        XCTAssertEqual(answer(payload(4000, [0])), .echo, "NUL is UTF-8")
    }

    func testAnInvalidCodeIsReportedBeforeAnInvalidReason() {
        XCTAssertEqual(answer(payload(5000, [0xFF])), .fail(status: 1002, reason: "invalid close code 5000"))
    }

    func testPayloadSizes() {
        let longest = payload(1000, Array(repeating: UInt8(ascii: "r"), count: 123))
        XCTAssertEqual(longest.count, 125)
        XCTAssertEqual(answer(longest), .echo)
        XCTAssertEqual(answer(payload(1000, Array("é".utf8) + Array(repeating: UInt8(ascii: "r"), count: 121))), .echo)
        for reasonLength in [124, 200, 1000] {
            XCTAssertEqual(answer(payload(1000, Array(repeating: UInt8(ascii: "r"), count: reasonLength))),
                           .fail(status: 1002, reason: "close frame over 125 bytes"), "\(reasonLength)")
        }
    }

    func testTakesARawBuffer() {
        let bytes = payload(65535)
        bytes.withUnsafeBytes { buffer in
            XCTAssertEqual(CloseFrameAnswer(payload: buffer), .fail(status: 1002, reason: "invalid close code 65535"))
        }
    }
}
