import XCTest
@testable import LayoutCore

/// Every path of a connection's life, with no socket: what the glue is told to do at each step.
final class ConnectionLifeTests: XCTestCase {
    private let tooSlow = ConnectionLife.CloseRequest(status: 1008, reason: "too slow", afterQueued: false)
    private let afterQueued = ConnectionLife.CloseRequest(status: 1009, reason: "too large", afterQueued: true)

    func testAConnectionToAReadyRoomIsOpenAndWritesQueuedThenFrames() {
        var life = ConnectionLife(roomReady: true, now: 5)
        XCTAssertEqual(life.state, .open)
        XCTAssertNil(life.awaitingSince)
        XCTAssertTrue(life.isGreeted)
        XCTAssertFalse(life.greet(), "an open connection is greeted once, when it opens")
        XCTAssertEqual(life.writable(mailboxEmpty: false), .queuedThenFrame)
        XCTAssertEqual(life.writable(mailboxEmpty: true), .queuedThenFrame)
        XCTAssertTrue(life.closed(), "a greeted connection's leaving is told")
        XCTAssertEqual(life.state, .closed)
    }

    func testAConnectionWaitingForItsRoomWritesNothingUntilGreeted() {
        var life = ConnectionLife(roomReady: false, now: 7)
        XCTAssertEqual(life.awaitingSince, 7)
        XCTAssertTrue(life.mayBeGreeted)
        XCTAssertFalse(life.isGreeted)
        XCTAssertEqual(life.writable(mailboxEmpty: false), .nothing, "nothing goes before hello")
        XCTAssertTrue(life.greet())
        XCTAssertEqual(life.state, .open)
        XCTAssertFalse(life.mayBeGreeted)
        XCTAssertFalse(life.greet())
    }

    func testOneNeverGreetedLeavesUnheardOf() {
        var life = ConnectionLife(roomReady: false, now: 0)
        XCTAssertFalse(life.closed())
        XCTAssertEqual(life.state, .closed)
    }

    func testACloseGoesAtTheNextWriteUnlessQueuedMessagesGoFirst() {
        var life = ConnectionLife(roomReady: true, now: 0)
        XCTAssertEqual(life.requestClose(afterQueued), .armAndWake)
        XCTAssertTrue(life.isClosing)
        XCTAssertEqual(life.closeRequest, afterQueued)
        XCTAssertEqual(life.writable(mailboxEmpty: false), .queuedOnly, "the answers queued go first, no frame")
        XCTAssertEqual(life.writable(mailboxEmpty: true), .close(status: 1009, reason: "too large"))
        XCTAssertEqual(life.state, .closeSent(greeted: true))
        XCTAssertEqual(life.writable(mailboxEmpty: false), .nothing, "nothing after the close frame")
        XCTAssertEqual(life.requestClose(tooSlow), .ignore, "a close frame is sent once")
        XCTAssertTrue(life.closed())
    }

    func testALaterCloseReplacesOneStillWaiting() {
        var life = ConnectionLife(roomReady: true, now: 0)
        _ = life.requestClose(afterQueued)
        XCTAssertEqual(life.requestClose(tooSlow), .armAndWake)
        XCTAssertEqual(life.writable(mailboxEmpty: false), .close(status: 1008, reason: "too slow"))
    }

    func testAWaitingConnectionClosedBeforeItsRoomIsReadyIsNeverHeardOf() {
        var life = ConnectionLife(roomReady: false, now: 3)
        XCTAssertEqual(life.requestClose(tooSlow), .armAndWake)
        XCTAssertNil(life.awaitingSince, "no longer waiting: the long-wait sweep leaves it")
        XCTAssertTrue(life.mayBeGreeted, "its room may still come: hello, then the close")
        XCTAssertEqual(life.writable(mailboxEmpty: true), .close(status: 1008, reason: "too slow"))
        XCTAssertFalse(life.closed())
    }

    func testARoomReadyAfterACloseWasAskedGreetsAndThenCloses() {
        var life = ConnectionLife(roomReady: false, now: 3)
        _ = life.requestClose(afterQueued)
        XCTAssertTrue(life.greet())
        XCTAssertEqual(life.state, .closing(afterQueued, greeted: true))
        XCTAssertEqual(life.writable(mailboxEmpty: false), .queuedOnly)
        XCTAssertEqual(life.writable(mailboxEmpty: true), .close(status: 1009, reason: "too large"))
        XCTAssertTrue(life.closed())
    }

    func testAClientsCloseFrameIsEchoedAnsweredOrReplacedByOurs() {
        var open = ConnectionLife(roomReady: true, now: 0)
        XCTAssertEqual(open.peerClosed(bad: nil), .echo)

        var bad = ConnectionLife(roomReady: true, now: 0)
        XCTAssertEqual(bad.peerClosed(bad: (1002, "bad close code")), .close(status: 1002, reason: "bad close code"))
        XCTAssertEqual(bad.state, .closeSent(greeted: true))
        XCTAssertEqual(bad.writable(mailboxEmpty: false), .nothing)

        var waiting = ConnectionLife(roomReady: true, now: 0)
        _ = waiting.requestClose(afterQueued)
        XCTAssertEqual(waiting.peerClosed(bad: nil), .close(status: 1009, reason: "too large"),
                       "our close answers instead of the echo")

        var sent = ConnectionLife(roomReady: true, now: 0)
        _ = sent.requestClose(tooSlow)
        _ = sent.writable(mailboxEmpty: true)
        XCTAssertEqual(sent.peerClosed(bad: (1002, "bad")), .echo, "our close frame is out: lws echoes")
    }
}
