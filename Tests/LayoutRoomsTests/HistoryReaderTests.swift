import EventBus
import ForceLayout
import XCTest
@testable import LayoutCore
@testable import LayoutRooms

/// Moments are rebuilt on the reader's queue; while one is asked of a room and not answered,
/// the room knows (`RoomHistory.isRead`: it then steps on one core).
final class HistoryReaderTests: XCTestCase {
    func testARoomIsReadFromTheRequestToItsLastAnswer() {
        let room = HistoryRooms.room("read", cells: 20, moving: true)
        let reader = HistoryReader()
        let mailbox = Mailbox(maxEventBacklog: 100)
        let pending = PendingMoments()
        XCTAssertFalse(room.history.isRead)
        reader.queue.suspend()
        reader.moment(HistoryReader.Request(at: .max, have: nil, ref: "a"), of: room, into: mailbox, pending: pending)
        reader.moment(HistoryReader.Request(at: .max, have: nil, ref: "b"), of: room, into: mailbox, pending: pending)
        XCTAssertTrue(room.history.isRead, "asked, not answered")
        reader.queue.resume()
        reader.queue.sync {}
        reader.queue.sync {}  // the waiting one, queued by the first's answer
        XCTAssertFalse(room.history.isRead, "both answered")
        var answers: [String] = []
        while let message = mailbox.pop() { answers.append(message.text) }
        XCTAssertEqual(answers.filter { $0.hasPrefix(#"{"type":"moment""#) }.count, 2, "\(answers)")
    }

    func testARoomsRebuiltMomentsGoOnceNobodyAsksForAWhile() {
        let room = HistoryRooms.room("idle", cells: 20, moving: true)
        let reader = HistoryReader(idleRelease: 3600)
        let mailbox = Mailbox(maxEventBacklog: 100)
        reader.moment(HistoryReader.Request(at: .max, have: nil, ref: "a"), of: room, into: mailbox, pending: PendingMoments())
        reader.queue.sync {}
        XCTAssertTrue(room.history.keepsMoments, "kept for whoever scrubs next")
        // What the reader does `idleRelease` after each answer, by hand:
        let first = room.history.answered()
        let second = room.history.answered()
        room.history.releaseMoments(ifLastAnswered: first)
        XCTAssertTrue(room.history.keepsMoments, "asked again since: kept")
        room.history.releaseMoments(ifLastAnswered: second)
        XCTAssertFalse(room.history.keepsMoments, "idle since its last answer: let go")

        let quick = HistoryReader(idleRelease: 0.5)
        quick.moment(HistoryReader.Request(at: .max, have: nil, ref: "b"), of: room, into: mailbox, pending: PendingMoments())
        quick.queue.sync {}
        XCTAssertTrue(room.history.keepsMoments)
        let deadline = Date().addingTimeInterval(5)
        while room.history.keepsMoments && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertFalse(room.history.keepsMoments, "the reader lets go by itself")
    }
}
