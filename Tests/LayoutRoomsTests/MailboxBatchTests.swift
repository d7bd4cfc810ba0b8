import EventBus
import Foundation
import XCTest
@testable import LayoutCore
@testable import LayoutRooms

/// What a frame may pass in the mailbox, and what a connection that asked for batches gets.
final class MailboxBatchTests: XCTestCase {
    private func envelope(_ seq: UInt64) -> Envelope<LayoutEvent> { MailboxFixtures.envelope(seq) }
    private func drain(_ mailbox: Mailbox) -> [String] { MailboxFixtures.drain(mailbox) }

    private func presence(_ seq: UInt64, _ kind: EventKind = .left) -> Envelope<LayoutEvent> {
        MailboxFixtures.presence(seq, kind)
    }

    private func json(_ message: OutgoingMessage) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(message.bytes)) as? [String: Any])
    }

    func testFramesMayPassOnlyJoinedAndLeft() {
        let mailbox = Mailbox(maxEventBacklog: 100)
        XCTAssertTrue(mailbox.framesMayPass)
        mailbox.pushEvent(presence(1, .joined))
        mailbox.pushEvent(presence(2, .left))
        mailbox.setStats(OutgoingMessage(Array("stats".utf8)))
        XCTAssertTrue(mailbox.framesMayPass, "no frame depends on joined, left or stats")
        mailbox.pushEvent(envelope(3))
        XCTAssertFalse(mailbox.framesMayPass, "a frame may depend on any other event")
        _ = mailbox.pop()
        _ = mailbox.pop()
        XCTAssertFalse(mailbox.framesMayPass)
        _ = mailbox.pop()
        XCTAssertTrue(mailbox.framesMayPass)
        mailbox.push(OutgoingMessage(Array("reply".utf8)))
        XCTAssertFalse(mailbox.framesMayPass, "replies keep their place before frames")
        _ = mailbox.pop()
        mailbox.pushFront(OutgoingMessage(Array("hello".utf8)))
        XCTAssertFalse(mailbox.framesMayPass, "nothing goes before the opening")
    }

    func testBatchingJoinsWhatWaitsInOrder() throws {
        let mailbox = Mailbox(maxEventBacklog: 1000)
        for seq in 1...50 { mailbox.pushEvent(presence(UInt64(seq))) }
        mailbox.push(OutgoingMessage(Array(#"{"type":"reply"}"#.utf8)))
        mailbox.setStats(OutgoingMessage(Array(#"{"type":"stats"}"#.utf8)))
        let batch = try json(XCTUnwrap(mailbox.pop(batching: true)))
        XCTAssertEqual(batch["type"] as? String, "batch")
        let messages = try XCTUnwrap(batch["messages"] as? [[String: Any]])
        XCTAssertEqual(messages.count, 52)
        XCTAssertEqual(messages.prefix(50).map { $0["seq"] as? Int }, (1...50).map { $0 })
        XCTAssertEqual(messages.prefix(50).map { $0["kind"] as? String }, Array(repeating: "left", count: 50))
        XCTAssertEqual(messages[50]["type"] as? String, "reply")
        XCTAssertEqual(messages[51]["type"] as? String, "stats", "the stats go last, as alone")
        XCTAssertTrue(mailbox.isEmpty)
        XCTAssertEqual(mailbox.queuedBytes, 0)
        XCTAssertTrue(mailbox.framesMayPass)
    }

    func testAMessageAloneIsNotWrapped() {
        let mailbox = Mailbox(maxEventBacklog: 100)
        mailbox.push(OutgoingMessage(Array(#"{"type":"reply"}"#.utf8)))
        XCTAssertEqual(mailbox.pop(batching: true)?.text, #"{"type":"reply"}"#)
        mailbox.setStats(OutgoingMessage(Array(#"{"type":"stats"}"#.utf8)))
        XCTAssertEqual(mailbox.pop(batching: true)?.text, #"{"type":"stats"}"#)
        XCTAssertNil(mailbox.pop(batching: true))
    }

    func testWithoutBatchingEachGoesAlone() {
        let mailbox = Mailbox(maxEventBacklog: 100)
        for seq in 1...3 { mailbox.pushEvent(presence(UInt64(seq))) }
        XCTAssertEqual(drain(mailbox).count, 3)
    }

    func testTheOpeningAndBinaryMessagesAreNeverBatched() throws {
        let mailbox = Mailbox(maxEventBacklog: 100)
        mailbox.pushEvent(presence(1))
        mailbox.pushFront(OutgoingMessage(Array([1, 2, 3]), binary: true))  // the first frame
        mailbox.pushFront(OutgoingMessage(Array(#"{"type":"hello"}"#.utf8)))
        mailbox.pushOpening(OutgoingMessage(Array(#"{"type":"data"}"#.utf8)))
        XCTAssertEqual(mailbox.pop(batching: true)?.text, #"{"type":"hello"}"#)
        XCTAssertEqual(mailbox.pop(batching: true)?.isBinary, true)
        // The opening's data went in order, after the event queued before it.
        let next = try XCTUnwrap(mailbox.pop(batching: true))
        XCTAssertTrue(next.text.contains(#""kind":"left""#), next.text)
        XCTAssertEqual(mailbox.pop(batching: true)?.text, #"{"type":"data"}"#)
        mailbox.push(OutgoingMessage(Array(#"{"type":"a"}"#.utf8)))
        mailbox.push(OutgoingMessage(Array([9]), binary: true))
        mailbox.push(OutgoingMessage(Array(#"{"type":"b"}"#.utf8)))
        XCTAssertEqual(mailbox.pop(batching: true)?.text, #"{"type":"a"}"#, "a binary message ends a batch")
        XCTAssertEqual(mailbox.pop(batching: true)?.isBinary, true)
        XCTAssertEqual(mailbox.pop(batching: true)?.text, #"{"type":"b"}"#)
    }

    func testABatchHoldsAtMostMaxBytes() throws {
        let mailbox = Mailbox(maxEventBacklog: 100)
        let big = OutgoingMessage(Array(("{\"type\":\"" + String(repeating: "x", count: 30_000) + "\"}").utf8))
        for _ in 0..<3 { mailbox.push(big) }
        let first = try json(XCTUnwrap(mailbox.pop(batching: true)))
        XCTAssertEqual((first["messages"] as? [Any])?.count, 2)
        XCTAssertEqual(mailbox.pop(batching: true)?.count, big.count, "the third goes alone")
        let huge = OutgoingMessage([UInt8](repeating: 32, count: MessageBatch.maxBytes + 1))
        mailbox.push(huge)
        mailbox.push(big)
        XCTAssertEqual(mailbox.pop(batching: true)?.count, huge.count)
        XCTAssertEqual(mailbox.pop(batching: true)?.count, big.count)
    }
}
