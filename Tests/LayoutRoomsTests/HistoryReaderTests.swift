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
}
