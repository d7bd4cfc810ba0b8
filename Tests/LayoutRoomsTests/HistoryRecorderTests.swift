import EventBus
import ForceLayout
import XCTest
@testable import LayoutCore
@testable import LayoutRooms

/// What a room's turns write to its history (`HistoryRecorder` in `RoomLayout`), turned by
/// hand on this thread: the events but `joined`/`left`, a keyframe just before a change that
/// removes cells (a second apart at most for `remove`s), and one when the layout settles.
final class HistoryRecorderTests: XCTestCase {
    private let budget = TurnBudget(frameInterval: 0.05, threads: 1, movingRooms: 1)

    private func room(cells: Int, moving: Bool = false) -> Room {
        HistoryRooms.room("past", cells: cells, moving: moving)
    }

    private func run(_ command: LayoutCommand, in room: Room) {
        // The way back carries refusals and `undoable` news: only a refusal fails the test.
        room.commands.push(QueuedCommand(command: command, client: "c1", ref: nil) { reply in
            let text = String(decoding: reply, as: UTF8.self)
            if text.hasPrefix(#"{"type":"error""#) { XCTFail(text) }
        })
        _ = room.turn(budget: budget, early: false)
    }

    private func kinds(_ room: Room) -> [EventKind] {
        room.history.current.events(before: nil, count: 1000).events.map(\.event.kind)
    }

    func testATurnFilesItsEventsButNotWhoJoinedOrLeft() throws {
        let room = room(cells: 4)
        let log = room.history.current
        XCTAssertEqual(log.segmentCount, 1, "the history starts with the room, from a checkpoint of it")
        XCTAssertEqual(log.moment(at: .max)?.state.cells.count, 4)
        room.presence(.joined, of: "c1")
        run(.add(count: 2, spawn: .random), in: room)
        room.presence(.left, of: "c1")
        run(.pin(id: 1, x: 5, y: 5), in: room)
        XCTAssertEqual(kinds(room).filter { $0 != .woke && $0 != .settled }, [.added, .pinned])
        let seqs = room.history.current.events(before: nil, count: 1000).events.map(\.seq)
        XCTAssertEqual(seqs, seqs.sorted(), "in the bus's order")
        let now = try XCTUnwrap(room.history.current.moment(at: .max))
        XCTAssertEqual(Array(now.state.cells.keys), Array(1...6))
        XCTAssertEqual(now.state.pins[1]?.x, 5)
    }

    func testAKeyframeJustBeforeAClearShowsTheCellsWhereTheyWere() throws {
        let room = room(cells: 5, moving: true)
        run(.pin(id: 1, x: 0, y: 0), in: room)
        for _ in 0..<3 { _ = room.turn(budget: budget, early: false) }
        Thread.sleep(forTimeInterval: 0.01)  // the clear comes a few ms after the history's start
        let seen = room.bus.nextSeq - 1
        run(.clear, in: room)
        let log = room.history.current
        let cleared = try XCTUnwrap(log.events(before: nil, count: 10).events.last { $0.event.kind == .cleared })
        let frame = try XCTUnwrap(log.segments.last?.keyframes.last { $0.seq < cleared.seq })
        XCTAssertEqual(frame.ids, [1, 2, 3, 4, 5])
        XCTAssertEqual(frame.seq, seen, "taken just before the clear's event")
        XCTAssertEqual(frame.tick, cleared.event.tick, "of the cells as they were when it came")
        XCTAssertLessThan(frame.seq, cleared.seq)
        // The moment just before the clear has the cells.
        XCTAssertEqual(try XCTUnwrap(log.moment(at: cleared.event.at - 1)).placed.map(\.id), [1, 2, 3, 4, 5])
        XCTAssertEqual(log.moment(at: .max)?.state.cells.count, 0)
    }

    func testRemovesManyTimesASecondTakeAKeyframeASecondAtMostWhileClearsAlwaysTakeOne() {
        let state = HistoryRooms.state(cells: 40, moving: true)
        let simulation = state.simulation
        let history = HistoryRooms.history()
        var recorder = HistoryRecorder()
        recorder.start(state, in: history, seq: 0)
        let keyframes = { history.current.segments.last?.keyframes.count ?? 0 }
        let start = history.current.oldestAt ?? 0
        // Each time the layout has moved: a keyframe of the same tick would say the same.
        func moved() { _ = simulation.step() }
        moved()
        recorder.keyframe(before: .remove(ids: [1]), state, in: history, now: start + 10)
        XCTAssertEqual(keyframes(), 0, "10 ms after the checkpoint, which shows the cells")
        moved()
        recorder.keyframe(before: .remove(ids: [2]), state, in: history, now: start + 1_000)
        XCTAssertEqual(keyframes(), 1, "a second after it")
        for (n, id) in (CellID(3)...12).enumerated() {
            moved()
            recorder.keyframe(before: .remove(ids: [id]), state, in: history, now: start + 1_000 + 90 * (n + 1))
        }
        XCTAssertEqual(keyframes(), 1, "ten removes in the next second: a whole keyframe each would be 80 kB a remove at 10k cells")
        moved()
        recorder.keyframe(before: .undo, state, in: history, now: start + 2_000)
        XCTAssertEqual(keyframes(), 2, "an undo a second after the last keyframe")
        moved()
        recorder.keyframe(before: .clear, state, in: history, now: start + 2_001)
        XCTAssertEqual(keyframes(), 3, "a clear takes one however recent the last")
    }

    func testALayoutThatSettlesIsKeptAsItCameToRest() throws {
        let room = room(cells: 6)
        var turns = 0
        while !room.status.current.settled && turns < 5000 {
            _ = room.turn(budget: budget, early: false)
            turns += 1
        }
        XCTAssertTrue(room.status.current.settled)
        let log = room.history.current
        XCTAssertEqual(kinds(room).last, .settled)
        let frame = try XCTUnwrap(log.segments.last?.keyframes.last, "a keyframe when it settles")
        XCTAssertEqual(frame.tick, room.status.current.tick)
        let keyframes = log.segments.last?.keyframes.count
        for _ in 0..<3 { _ = room.turn(budget: budget, early: false) }
        XCTAssertEqual(room.history.current.segments.last?.keyframes.count, keyframes, "a settled layout takes none")
    }
}
