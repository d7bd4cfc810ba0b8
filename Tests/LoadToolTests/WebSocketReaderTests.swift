import XCTest
@testable import LoadTool

/// The tool's own WebSocket client: frames read from hand-written bytes, fed whole and a byte
/// at a time; the handshake; masked frames it sends.
final class WebSocketReaderTests: XCTestCase {
    typealias Event = WebSocketFrameReader.Event

    func events(_ stream: [UInt8], keptBytes: Int = 4, piece: Int? = nil) -> [Event] {
        var reader = WebSocketFrameReader(keptBytes: keptBytes)
        var events: [Event] = []
        let size = piece ?? max(1, stream.count)
        for start in stride(from: 0, to: stream.count, by: size) {
            let part = Array(stream[start..<min(start + size, stream.count)])
            part.withUnsafeBytes { reader.feed($0) { events.append($0) } }
        }
        return events
    }

    func testMessagesOfEveryLengthForm() {
        let text: [UInt8] = [0x81, 0x05] + Array("hello".utf8)
        let binary: [UInt8] = [0x82, 126, 0x01, 0x00] + (0..<256).map { UInt8($0 & 0xff) }
        let large: [UInt8] = [0x82, 127, 0, 0, 0, 0, 0, 1, 0x00, 0x00] + Array(repeating: 7, count: 65536)
        let empty: [UInt8] = [0x81, 0x00]
        let stream = text + binary + large + empty
        let expected: [Event] = [
            .message(binary: false, head: Array("hell".utf8), length: 5, startedAt: 0),
            .message(binary: true, head: [0, 1, 2, 3], length: 256, startedAt: 0),
            .message(binary: true, head: [7, 7, 7, 7], length: 65536, startedAt: 0),
            .message(binary: false, head: [], length: 0, startedAt: 0),
        ]
        XCTAssertEqual(events(stream), expected)
        XCTAssertEqual(events(stream, piece: 1), expected, "a byte at a time")
        XCTAssertEqual(events(stream, piece: 3), expected)
    }

    func testFragmentsPingsAndClose() {
        let stream: [UInt8] = [0x02, 0x02, 9, 8] // binary, not final
            + [0x89, 0x02, 0xaa, 0xbb] // a ping between the fragments
            + [0x80, 0x03, 7, 6, 5] // continuation, final
            + [0x8a, 0x00] // an unasked pong: ignored
            + [0x88, 0x02, 0x03, 0xf0] // close 1008
        let expected: [Event] = [.ping([0xaa, 0xbb]), .message(binary: true, head: [9, 8, 7, 6], length: 5, startedAt: 0), .close(1008)]
        XCTAssertEqual(events(stream), expected)
        XCTAssertEqual(events(stream, piece: 1), expected)
        XCTAssertEqual(events([0x88, 0x00]), [.close(nil)])
        // when a message started: the read in which its first frame's header ended
        var reader = WebSocketFrameReader(keptBytes: 2)
        var seen: [Event] = []
        [UInt8]([0x02, 0x01, 5]).withUnsafeBytes { reader.feed($0, at: 7) { seen.append($0) } }
        [UInt8]([0x80, 0x01, 6]).withUnsafeBytes { reader.feed($0, at: 9) { seen.append($0) } }
        XCTAssertEqual(seen, [.message(binary: true, head: [5, 6], length: 2, startedAt: 7)])
    }

    func testMaskedFramesItSends() {
        // RFC 6455 5.7: a masked "Hello"
        XCTAssertEqual(WebSocketFrameWriter.masked(opcode: 1, payload: Array("Hello".utf8), mask: [0x37, 0xfa, 0x21, 0x3d]),
                       [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
        let long = WebSocketFrameWriter.masked(opcode: 10, payload: Array(repeating: 0, count: 300), mask: [1, 2, 3, 4])
        XCTAssertEqual(Array(long.prefix(8)), [0x8a, 0x80 | 126, 0x01, 0x2c, 1, 2, 3, 4])
        XCTAssertEqual(long.count, 8 + 300)
    }

    func testHandshake() {
        XCTAssertEqual(Base64.encode(Array("the sample nonce".utf8)), "dGhlIHNhbXBsZSBub25jZQ==")
        XCTAssertEqual(Base64.encode([0xff, 0xfe]), "//4=")
        let request = String(decoding: WebSocketHandshake.request(host: "127.0.0.1", port: 8080, path: "/ws",
                                                                   subprotocol: "forcelayout.v2", key: Array("the sample nonce".utf8)), as: UTF8.self)
        XCTAssertTrue(request.hasPrefix("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"))
        XCTAssertTrue(request.contains("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"))
        XCTAssertTrue(request.hasSuffix("Sec-WebSocket-Protocol: forcelayout.v2\r\n\r\n"))

        var handshake = WebSocketHandshake(subprotocol: "forcelayout.v2")
        let answer = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nsec-websocket-protocol: forcelayout.v2\r\n\r\n".utf8)
        let split = answer.count - 10
        XCTAssertEqual(answer[..<split].withUnsafeBytes { handshake.feed($0) }, .pending)
        XCTAssertEqual((Array(answer[split...]) + [0x81, 0x00]).withUnsafeBytes { handshake.feed($0) }, .accepted(leftover: [0x81, 0x00]))

        var v1 = WebSocketHandshake(subprotocol: "forcelayout.v2")
        let other = Array("HTTP/1.1 101 Switching Protocols\r\nSec-WebSocket-Protocol: forcelayout.v1\r\n\r\n".utf8)
        XCTAssertEqual(other.withUnsafeBytes { v1.feed($0) }, .refused("the server did not pick forcelayout.v2"))
        var refused = WebSocketHandshake(subprotocol: "forcelayout.v2")
        XCTAssertEqual(Array("HTTP/1.1 403 Forbidden\r\n\r\n".utf8).withUnsafeBytes { refused.feed($0) }, .refused("HTTP/1.1 403 Forbidden"))
    }
}
