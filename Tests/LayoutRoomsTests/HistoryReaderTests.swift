import EventBus
import ForceLayout
import XCTest
@testable import LayoutCore
@testable import LayoutRooms

/// Moments are rebuilt on the reader's queue; while one is asked of a room and not answered,
/// the room knows (`RoomHistory.isRead`: it then steps on one core).
final class HistoryReaderTests: XCTestCase {
    func testARoomIsReadFromTheRequestToItsLastAnswer() {
        var parameters = Parameters.defaults
        parameters.threshold = 0
        let simulation = Simulation(parameters: parameters, seed: 3)
        simulation.add(count: 20, spawn: .random)
        let state = LayoutState(simulation: simulation, limits: Limits())
        let room = Room(name: RoomName("read")!, layout: RoomLayout(state: state, keeper: nil), replay: ReplayBounds(events: 64),
                        history: RoomHistory(bounds: HistoryBounds(bytes: 1 << 30, seconds: 3600)), changed: ChangedRooms())
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
