import EventBus
import Synchronization
import XCTest
@testable import LayoutCore
@testable import LayoutRooms

/// A room a cluster's server takes over (`ClusterNode.won`), without Redis: its connections'
/// commands wait behind what relays had asked before (`CommandQueue.hold`), and its turn tells
/// the failover after them (`TurnRequest.failover`): who was left behind leaves, then the
/// event, then the room's data, here and for the relays.
final class FailoverTurnTests: XCTestCase {
    private let budget = TurnBudget(frameInterval: 0.05, threads: 1, movingRooms: 1)

    private func command(_ command: LayoutCommand, by client: String) -> QueuedCommand {
        // The way back carries refusals and `undoable` news: only a refusal fails the test.
        QueuedCommand(command: command, client: client, ref: nil) { reply in
            let text = String(decoding: reply, as: UTF8.self)
            if text.hasPrefix(#"{"type":"error""#) { XCTFail(text) }
        }
    }

    func testCommandsHereWaitBehindThoseRelaysSentBefore() {
        let queue = CommandQueue()
        queue.push(command(.pin(id: 1, x: 0, y: 0), by: "before"))
        queue.hold()
        queue.push(command(.pin(id: 2, x: 0, y: 0), by: "here"))
        queue.pushRelayed(command(.pin(id: 3, x: 0, y: 0), by: "relayed"))
        XCTAssertEqual(queue.drain().map(\.client), ["before", "relayed"], "what relays sent is applied while held")
        queue.pushRelayed(command(.pin(id: 4, x: 0, y: 0), by: "relayed later"))
        queue.release()
        queue.push(command(.pin(id: 5, x: 0, y: 0), by: "after"))
        XCTAssertEqual(queue.drain().map(\.client), ["relayed later", "here", "after"])
        XCTAssertTrue(queue.isEmpty)
    }

    func testTheFailoverIsToldAfterTheCommandsThenTheDataToEveryone() throws {
        let room = HistoryRooms.room("moved", cells: 3)
        let listener = Listener()
        room.install(replicator: listener) {
            var state = HistoryRooms.state(cells: 3)
            state.simulation.parameters.charge = 42  // the state it goes on from, not what relays last heard
            return RoomLayout(state: state, keeper: nil)
        }
        let mailbox = Mailbox(maxEventBacklog: 100)
        let (subscription, _) = room.bus.subscribe(.all, replayLast: 0) { mailbox.pushEvent($0) }
        defer { subscription.cancel() }
        _ = room.pointers.join(mailbox)

        room.commands.pushRelayed(command(.addCells([NewCell(data: CellData(label: "one"))], spawn: .center), by: "c2@a"))
        room.requests.push(.failover(node: "b", previous: "a", leftBehind: ["c9@a"]))
        _ = room.turn(budget: budget, early: false)

        var kinds: [String] = []
        var dataAfter: String?
        var failover: [String: Any]?
        while let message = mailbox.pop() {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(message.bytes)) as? [String: Any])
            if object["type"] as? String == "data" { dataAfter = kinds.last; continue }
            if let kind = object["kind"] as? String { kinds.append(kind) }
            if object["kind"] as? String == "failover" { failover = object }
        }
        XCTAssertEqual((failover?["params"] as? [String: Any])?["charge"] as? Double, 42, "the parameters it went on with")
        XCTAssertEqual(kinds.filter { $0 != "woke" && $0 != "settled" }, ["added", "left", "failover"])
        XCTAssertEqual(dataAfter, "failover", "the data follows the event, at once")
        let answers = listener.answers.withLock { $0 }
        XCTAssertEqual(answers.count, 1)
        XCTAssertEqual(answers.first?.everyone, true, "every relay's clients get it")
        let data = String(decoding: try XCTUnwrap(answers.first?.bytes), as: UTF8.self)
        XCTAssertTrue(data.contains(#""one""#), "with what the relayed command did: \(data)")
        XCTAssertTrue(room.requests.isEmpty)
    }

    func testARoomTakenOverPublishesNoFrameBeforeItsFailover() {
        let room = HistoryRooms.room("moved", cells: 3)
        let mirrored = room.frames.current?.serial  // what the room's clients last had
        room.install(replicator: Listener()) {
            var layout = RoomLayout(state: HistoryRooms.state(cells: 4), keeper: nil)
            layout.continueFrames(after: 7, failover: true)
            return layout
        }
        _ = room.turn(budget: budget, early: false)
        XCTAssertEqual(room.frames.current?.serial, mirrored, "no frame before the failover is told")
        room.requests.push(.failover(node: "b", previous: "a", leftBehind: []))
        _ = room.turn(budget: budget, early: false)
        XCTAssertEqual(room.frames.current?.serial, 8, "then the new membership, numbered on from the relays' last")
    }
}

/// Hears the room as a cluster's replicator would: the data answers only.
private final class Listener: RoomOwnerLink {
    let answers = Mutex<[(bytes: [UInt8]?, everyone: Bool)]>([])
    var remoteClients: Int { 0 }
    var remoteTextReaders: Int { 0 }
    func attach(to room: Room) {}
    func published(_ publication: RoomPublication, by room: Room) {
        if case .dataAnswer(let bytes, let everyone) = publication { answers.withLock { $0.append((bytes, everyone)) } }
    }
}
