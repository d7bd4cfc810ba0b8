import EventBus
import XCTest
@testable import LayoutCore
@testable import LayoutRooms

final class MailboxTests: XCTestCase {
    private func envelope(_ seq: UInt64) -> Envelope<LayoutEvent> { MailboxFixtures.envelope(seq) }
    private func drain(_ mailbox: Mailbox) -> [String] { MailboxFixtures.drain(mailbox) }

    func testEventsInOrderWithoutRepeats() {
        let mailbox = Mailbox(maxEventBacklog: 100)
        mailbox.skipEvents(through: 2)
        for seq: UInt64 in [1, 2, 3, 3, 4, 2] { mailbox.pushEvent(envelope(seq)) }
        let seqs = drain(mailbox).map { $0.contains("\"seq\":3") ? 3 : ($0.contains("\"seq\":4") ? 4 : 0) }
        XCTAssertEqual(seqs, [3, 4])
    }

    func testHelloGoesFirstAndStatsLast() {
        let mailbox = Mailbox(maxEventBacklog: 100)
        mailbox.setStats(OutgoingMessage(Array("stats1".utf8)))
        mailbox.pushEvent(envelope(1))
        mailbox.push(OutgoingMessage(Array("reply".utf8)))
        mailbox.pushFront(OutgoingMessage(Array("hello".utf8)))
        mailbox.setStats(OutgoingMessage(Array("stats2".utf8)))
        let texts = drain(mailbox)
        XCTAssertEqual(texts.count, 4)
        XCTAssertEqual(texts[0], "hello")
        XCTAssertTrue(texts[1].contains("\"seq\":1"))
        XCTAssertEqual(texts[2], "reply")
        XCTAssertEqual(texts[3], "stats2")
        XCTAssertTrue(mailbox.isEmpty)
    }

    func testBacklogOverflowIsFlaggedNotBuffered() {
        let mailbox = Mailbox(maxEventBacklog: 10)
        for seq in 1...10 { mailbox.pushEvent(envelope(UInt64(seq))) }
        XCTAssertFalse(mailbox.overflowed)
        mailbox.pushEvent(envelope(11))
        XCTAssertEqual(mailbox.overflow, .events(10))
        // The connection is closed as too slow: what it had queued is freed at once.
        XCTAssertEqual(drain(mailbox).count, 0)
        XCTAssertEqual(mailbox.queuedBytes, 0)
        mailbox.push(OutgoingMessage(Array("reply".utf8)))
        XCTAssertTrue(mailbox.isEmpty)
    }

    func testQueuedMessagesShareOneByteBudget() {
        let alarm = OverflowAlarm()
        let mailbox = Mailbox(maxEventBacklog: 100, maxBytes: 1000, alarm: alarm)
        mailbox.push(OutgoingMessage([UInt8](repeating: 65, count: 600)))
        mailbox.push(OutgoingMessage([UInt8](repeating: 66, count: 380)))
        XCTAssertEqual(mailbox.queuedBytes, 980)
        XCTAssertFalse(mailbox.overflowed)
        mailbox.pushEvent(envelope(1))
        XCTAssertEqual(mailbox.overflow, .bytes(1000), "980 queued + an event > 1000")
        XCTAssertTrue(alarm.take())
        XCTAssertNil(mailbox.pop(), "what was queued is dropped: the connection is closed without it")
    }

    func testTheBudgetFreesAsMessagesAreWritten() {
        let mailbox = Mailbox(maxEventBacklog: 100, maxBytes: 1000)
        let message = OutgoingMessage([UInt8](repeating: 65, count: 700))
        for _ in 0..<10 {
            mailbox.push(message)
            XCTAssertTrue(mailbox.pop() === message)
        }
        XCTAssertFalse(mailbox.overflowed)
        XCTAssertEqual(mailbox.queuedBytes, 0)
    }

    func testOneMessageLargerThanTheBudgetIsTakenIntoAnEmptyQueue() {
        let mailbox = Mailbox(maxEventBacklog: 100, maxBytes: 1000)
        let huge = OutgoingMessage([UInt8](repeating: 65, count: 5000))
        mailbox.push(huge)
        XCTAssertFalse(mailbox.overflowed)
        mailbox.push(OutgoingMessage(Array("reply".utf8)))
        XCTAssertTrue(mailbox.overflowed, "nothing more while 5000 bytes wait")
    }

    func testTheOpeningIsAlwaysTakenAndCounts() {
        let mailbox = Mailbox(maxEventBacklog: 100, maxBytes: 1000)
        mailbox.pushFront(OutgoingMessage([UInt8](repeating: 70, count: 3000)))
        mailbox.pushFront(OutgoingMessage([UInt8](repeating: 72, count: 2000)))
        mailbox.pushOpening(OutgoingMessage([UInt8](repeating: 68, count: 4000)))
        XCTAssertFalse(mailbox.overflowed, "a connection gets its opening whatever the budget")
        XCTAssertEqual(mailbox.queuedBytes, 9000)
        XCTAssertEqual(mailbox.openingBytes, 9000)
        XCTAssertEqual(drain(mailbox).map(\.count), [2000, 3000, 4000])
        XCTAssertEqual(mailbox.queuedBytes, 0)
        XCTAssertEqual(mailbox.openingBytes, 0)
    }

    func testAnUnreadOpeningHoldsItsOwnBytesAndTheBudgetBesideIt() {
        let mailbox = Mailbox(maxEventBacklog: 100, maxBytes: 1000)
        mailbox.pushFront(OutgoingMessage([UInt8](repeating: 72, count: 2000)))
        mailbox.pushEvent(envelope(1))  // a joiner's own `joined`: it must not close it
        mailbox.push(OutgoingMessage([UInt8](repeating: 66, count: 900)))
        XCTAssertFalse(mailbox.overflowed, "what follows the opening has the whole budget")
        XCTAssertEqual(mailbox.openingBytes, 2000)
        mailbox.push(OutgoingMessage([UInt8](repeating: 66, count: 200)))
        XCTAssertTrue(mailbox.overflowed, "a joiner that never reads holds its opening and the budget, no more")
        XCTAssertNil(mailbox.pop())
        XCTAssertEqual(mailbox.queuedBytes, 0)
    }

    func testRepliesDoNotCountAgainstTheEventBacklog() {
        let mailbox = Mailbox(maxEventBacklog: 3)
        for _ in 0..<10 { mailbox.push(OutgoingMessage(Array("reply".utf8))) }
        for seq in 1...3 { mailbox.pushEvent(envelope(UInt64(seq))) }
        XCTAssertFalse(mailbox.overflowed)
        _ = drain(mailbox)
        for seq in 4...6 { mailbox.pushEvent(envelope(UInt64(seq))) }
        XCTAssertFalse(mailbox.overflowed)
    }
}

final class EventMessagesTests: XCTestCase {
    func testOneEncodingIsSharedByEveryMailbox() {
        let encoder = EventMessages()
        let envelope = Envelope(seq: 9, event: LayoutEvent(kind: .settled, by: nil, tick: 1, detail: .none))
        let mailboxes = (0..<3).map { _ in Mailbox(maxEventBacklog: 10, encoder: encoder) }
        for mailbox in mailboxes { mailbox.pushEvent(envelope) }
        let messages = mailboxes.compactMap { $0.pop() }
        XCTAssertEqual(messages.count, 3)
        XCTAssertTrue(messages.allSatisfy { $0 === messages[0] })
        XCTAssertTrue(messages[0].text.contains("\"seq\":9"))
        let next = Envelope(seq: 10, event: LayoutEvent(kind: .woke, by: nil, tick: 2, detail: .none))
        XCTAssertFalse(encoder.message(for: next) === messages[0])
    }
}
