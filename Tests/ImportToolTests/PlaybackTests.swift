import EventBus
import ForceLayout
import XCTest
@testable import ImportTool
@testable import LayoutCore

/// Playing a recording (`forcelayout import FILE.flhistory`): what the file must be
/// (`Recording`), what the plan sends for its records (`PlaybackPlan`), and how the session maps
/// the recording's ids to the room's, paces the messages and ends (`PlaybackSession`).
final class PlaybackTests: XCTestCase {
    // MARK: a recording

    /// Cells 1 (labelled) and 2 (pinned at (10, 0)) linked, at t=1000; then the events and
    /// keyframes given.
    private func recording(_ records: [[UInt8]], paused: Bool = false) -> [UInt8] {
        var parameters = Parameters()
        parameters.paused = paused
        parameters.charge = 20
        let layout = LayoutSnapshot(parameters: parameters, nextID: 3,
                                    cells: [CellRecord(id: 1, x: -3, y: 4, pinned: false), CellRecord(id: 2, x: 10, y: 0, pinned: true)],
                                    links: [Link(source: 1, target: 2)])
        var catalog = CellCatalog()
        catalog[1] = CellData(label: "one")
        let point = Checkpoint(at: 1000, tick: 5, seq: 4, state: SavedState(layout: layout, reservation: 3, catalog: catalog))
        return HistoryFileFormat.header + HistoryFileFormat.checkpoint(point) + records.flatMap { $0 }
    }

    private func event(_ seq: UInt64, _ kind: EventKind, _ detail: LayoutEvent.Detail, at: Int) -> [UInt8] {
        HistoryFileFormat.event(Envelope(seq: seq, event: LayoutEvent(kind: kind, by: "c9", tick: Int(seq), detail: detail, at: at)))
    }

    private func keyframe(at: Int, _ placed: [(id: CellID, x: Double, y: Double)]) -> [UInt8] {
        HistoryFileFormat.keyframe(Keyframe(at: at, tick: 0, seq: 0, placed: placed), withIDs: true)
    }

    private func plan(_ bytes: [UInt8], maxAdd: Int = 1000) throws -> PlaybackPlan {
        var limits = Limits()
        limits.maxAddPerMessage = maxAdd
        return PlaybackPlan(try Recording(bytes), roomParameters: Parameters(), limits: limits)
    }

    /// Each message as its wire form (in the recording's ids) and when it is due.
    private func wire(_ plan: PlaybackPlan) -> [String] {
        plan.messages.map { String(decoding: ClientRequest(.layout($0.command)).encoded, as: UTF8.self) + " @\($0.offset)" }
    }

    // MARK: the file

    func testAFileThatIsNoRecordingIsRefusedInWords() {
        for (bytes, why) in [(Array("{\"nodes\":[]}".utf8), "not a forcelayout recording: a .flhistory file starts with \"FLHIST1\""),
                             (HistoryFileFormat.header, "an empty recording: a header and no record"),
                             (HistoryFileFormat.header + [40, 0, 0, 0, 1, 2], "a damaged recording: its first record is not whole (6 bytes after the header)"),
                             (HistoryFileFormat.header + event(1, .cleared, .cells([1]), at: 5), "a damaged recording: it does not start with a checkpoint of the room")] {
            XCTAssertThrowsError(try Recording(bytes)) { XCTAssertEqual("\($0)", why) }
        }
        XCTAssertTrue(Recording.isRecording(recording([])))
        XCTAssertFalse(Recording.isRecording(Array("a,b\n".utf8)))
    }

    func testACutTailIsLeftOutAndSaid() throws {
        var bytes = recording([event(5, .removed, .cells([1]), at: 2000)])
        let whole = try Recording(bytes)
        bytes += event(6, .cleared, .cells([2]), at: 3000).dropLast(3)
        let cut = try Recording(bytes)
        XCTAssertEqual(cut.counts.events, 1)
        XCTAssertEqual(whole.cutBytes, 0)
        XCTAssertEqual(cut.cutBytes, event(6, .cleared, .cells([2]), at: 3000).count - 3)
        XCTAssertTrue(PlaybackSession(recording: cut).summary.notes[0].hasPrefix("the file's last \(cut.cutBytes) bytes are not whole records"))
    }

    // MARK: the plan

    func testTheFirstMomentIsPausedThenItsCellsLinksAndPins() throws {
        let plan = try plan(recording([]), maxAdd: 1)
        XCTAssertEqual(wire(plan), [
            #"{"type":"params","charge":20,"paused":true} @0"#,
            #"{"type":"add","cells":[{"label":"one","x":-3,"y":4}],"spawn":"random"} @0"#,
            #"{"type":"add","cells":[{"x":10,"y":0}],"spawn":"random"} @0"#,
            #"{"type":"link","links":[{"source":1,"target":2}]} @0"#,
            #"{"type":"pin","id":2,"x":10,"y":0} @0"#,
            #"{"type":"params","paused":false} @0"#,
        ])
        XCTAssertEqual(plan.messages.map(\.answer), [.params, .added, .added, .linked, .pinned, .params])
        XCTAssertEqual(plan.messages[1].adds, [1])
        XCTAssertEqual(plan.messages[2].adds, [2])
    }

    func testARecordingThatEndsPausedLeavesTheRoomPaused() throws {
        let plan = try plan(recording([], paused: true))
        XCTAssertEqual(wire(plan).last, #"{"type":"pin","id":2,"x":10,"y":0} @0"#)
    }

    func testEachEventIsTheChangeThatMadeIt() throws {
        var charged = Parameters()
        charged.charge = 50
        var paused = charged
        paused.paused = true
        let plan = try plan(recording([
            event(3, .removed, .cells([1]), at: 900),  // in the checkpoint already: not played
            event(5, .added, .added([3, 4], data: [CellRecordData(id: 4, data: CellData(group: "g"), radius: 8)]), at: 2000),
            event(6, .linked, .linked([LinkRecord(Link(source: 3, target: 4, distance: 40), attrs: nil)]), at: 2100),
            keyframe(at: 2500, [(1, -3, 4), (2, 10, 0), (3, 1.5, 2.5), (4, 5, 6)]),
            event(7, .params, .params(charged, changed: ["charge"]), at: 3000),
            event(8, .params, .params(paused, changed: ["paused"]), at: 3100),  // the room is paused already
            event(9, .updated, .updated([CellRecordData(id: 1, data: CellData(label: "uno"), radius: nil),
                                         CellRecordData(id: 4, data: CellData(group: "g"), radius: 8)]), at: 3200),
            event(10, .unlinked, .unlinked([LinkEnds(source: 4, target: 3)]), at: 3300),
            event(11, .unpinned, .unpinned(id: 2), at: 3400),
            event(12, .settled, .none, at: 3500),
            event(13, .removed, .cells([3]), at: 3600),
            event(14, .cleared, .cells([1, 2, 4]), at: 4000),
            event(15, .added, .cells([5]), at: 4100),
        ]))
        XCTAssertEqual(Array(wire(plan).dropFirst(4)), [
            #"{"type":"add","cells":[{"x":1.5,"y":2.5},{"radius":8,"group":"g","x":5,"y":6}],"spawn":"random"} @1000"#,
            #"{"type":"link","links":[{"source":3,"target":4,"distance":40}]} @1100"#,
            #"{"type":"params","charge":50} @2000"#,
            #"{"type":"update","cells":[{"id":1,"label":"uno","color":null,"group":null,"radius":null,"key":null,"attrs":null}]} @2200"#,
            #"{"type":"unlink","links":[{"source":4,"target":3}]} @2300"#,
            #"{"type":"unpin","id":2} @2400"#,
            #"{"type":"remove","ids":[3]} @2600"#,
            #"{"type":"clear"} @3000"#,
            #"{"type":"add","cells":[{}],"spawn":"random"} @3100"#,
        ], "the keyframe at 2500 moves nothing (the cells are where their add put them); the recording ends paused")
        XCTAssertEqual(plan.messages[4].adds, [3, 4])
        XCTAssertEqual(plan.duration, 3100)
    }

    func testAKeyframePutsTheUnpinnedCellsThatMoved() throws {
        let plan = try plan(recording([keyframe(at: 1500, [(1, -3, 4), (2, 30, 30)]), keyframe(at: 2000, [(1, 7, -2), (2, 30, 30)])]))
        let moves = wire(plan).filter { $0.hasPrefix(#"{"type":"update""#) }
        XCTAssertEqual(moves.count, 1, "the first keyframe leaves cell 1 where it was; cell 2 is pinned")
        let update = try XCTUnwrap(moves.first)
        XCTAssertTrue(update.hasPrefix(#"{"type":"update","cells":[{"id":1,"x":7"#), update)
        XCTAssertTrue(update.hasSuffix("@1000"), update)
    }

    func testALaterCheckpointIsReachedByItsDifferences() throws {
        // A restore: cell 1 comes back (it was removed), cell 2 is released, charge back to 20.
        var parameters = Parameters()
        parameters.charge = 20
        let layout = LayoutSnapshot(parameters: parameters, nextID: 4,
                                    cells: [CellRecord(id: 1, x: 1, y: 1, pinned: false), CellRecord(id: 2, x: 2, y: 2, pinned: false)])
        let restored = HistoryFileFormat.checkpoint(Checkpoint(at: 5000, tick: 9, seq: 6, state: SavedState(layout: layout, reservation: 4)))
        let plan = try plan(recording([
            event(5, .removed, .cells([1]), at: 2000),
            restored,
            event(6, .restored, .restored(moment: 1500, ids: [1, 2], pinned: [], records: [], links: []), at: 5000),
        ]))
        XCTAssertEqual(Array(wire(plan).dropFirst(4)), [
            #"{"type":"remove","ids":[1]} @1000"#,
            #"{"type":"add","cells":[{"x":1,"y":1}],"spawn":"random"} @4000"#,
            #"{"type":"unpin","id":2} @4000"#,
            #"{"type":"update","cells":[{"id":2,"x":2,"y":2}]} @4000"#,
            #"{"type":"params","paused":false} @4000"#,
        ])
    }

    func testMessagesStayWithinTheServersLimits() throws {
        let ids = Array(3...12)
        var limits = Limits()
        limits.maxAddPerMessage = 4
        let plan = PlaybackPlan(try Recording(recording([event(5, .added, .cells(ids), at: 2000)])), roomParameters: Parameters(), limits: limits)
        let adds = plan.messages.filter { $0.answer == .added }.dropFirst()
        XCTAssertEqual(adds.map(\.adds), [[3, 4, 5, 6], [7, 8, 9, 10], [11, 12]])
        limits.maxMessageBytes = 200
        let small = PlaybackPlan(try Recording(recording([event(5, .added, .cells(ids), at: 2000)])), roomParameters: Parameters(), limits: limits)
        for message in small.messages {
            XCTAssertLessThanOrEqual(ClientRequest(.layout(message.command), ref: "play-99999").encoded.count, 200)
        }
    }

    // MARK: the session

    private let hello = #"{"type":"hello","client":"c3","role":"editor","params":{"stiffness":0.02,"charge":10,"cellSize":20,"threshold":0.3,"tickRate":20,"theta":0.9,"collide":false,"paused":false,"model":"auto","edgeLength":30,"linkStrength":1},"limits":{"maxAddPerMessage":1000,"maxMessageBytes":65536}}"#

    private func message(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }

    private func sent(_ action: SessionAction<PlaybackSession.Summary>) -> [String] {
        guard case .send(let messages) = action else { return [] }
        return messages.map { String(decoding: $0, as: UTF8.self) }
    }

    func testTheRoomsIdsStandForTheRecordings() throws {
        var session = PlaybackSession(recording: try Recording(recording([event(5, .linked, .linked([]), at: 1500)])), speed: 0)
        XCTAssertEqual(session.received(message(hello)), .wait)
        XCTAssertEqual(sent(session.receivedFrame(cells: 0)), [
            #"{"type":"params","charge":20,"paused":true,"ref":"play-1"}"#,
            #"{"type":"add","cells":[{"label":"one","x":-3,"y":4},{"x":10,"y":0}],"spawn":"random","ref":"play-2"}"#,
        ], "the link waits for its cells' ids")
        XCTAssertEqual(session.received(message(#"{"type":"event","kind":"params","by":"c3"}"#)), .wait)
        XCTAssertEqual(session.received(message(#"{"type":"event","kind":"added","by":"c8","ids":[1,2]}"#)), .wait, "someone else's")
        XCTAssertEqual(sent(session.received(message(#"{"type":"event","kind":"added","by":"c3","ids":[41,42]}"#))), [
            #"{"type":"link","links":[{"source":41,"target":42}],"ref":"play-3"}"#,
            #"{"type":"pin","id":42,"x":10,"y":0,"ref":"play-4"}"#,
            #"{"type":"params","paused":false,"ref":"play-5"}"#,
        ])
        XCTAssertEqual(session.received(message(#"{"type":"event","kind":"linked","by":"c3"}"#)), .wait)
        XCTAssertEqual(session.received(message(#"{"type":"event","kind":"pinned","by":"c3"}"#)), .wait)
        guard case .finished(let summary) = session.received(message(#"{"type":"event","kind":"params","by":"c3"}"#)) else {
            return XCTFail("not finished")
        }
        XCTAssertEqual(summary.messages, 5)
        XCTAssertEqual(summary.events, 1)
    }

    func testTheRecordingsPaceIsKept() throws {
        let bytes = recording([event(5, .unpinned, .unpinned(id: 2), at: 5000)])
        var session = PlaybackSession(recording: try Recording(bytes), speed: 2)
        _ = session.tick(now: 100)
        _ = session.received(message(hello))
        XCTAssertEqual(sent(session.receivedFrame(cells: 0)).count, 2)
        _ = session.received(message(#"{"type":"event","kind":"params","by":"c3"}"#))
        XCTAssertEqual(sent(session.received(message(#"{"type":"event","kind":"added","by":"c3","ids":[7,8]}"#))).count, 2, "link and pin: due at once")
        _ = session.received(message(#"{"type":"event","kind":"linked","by":"c3"}"#))
        _ = session.received(message(#"{"type":"event","kind":"pinned","by":"c3"}"#))
        XCTAssertEqual(session.tick(now: 101.9), .wait, "4 s of recording at twice its pace: 2 s")
        XCTAssertEqual(sent(session.tick(now: 102.1)), [#"{"type":"unpin","id":8,"ref":"play-5"}"#, #"{"type":"params","paused":false,"ref":"play-6"}"#])
    }

    func testARoomWithCellsIsRefusedUnlessReplaced() throws {
        var session = PlaybackSession(recording: try Recording(recording([])))
        _ = session.received(message(hello))
        XCTAssertEqual(session.receivedFrame(cells: 3),
                       .failed("the room holds 3 cell(s): a recording is played into an empty room (or give --replace to clear it first)"))
        var replacing = PlaybackSession(recording: try Recording(recording([])), replace: true)
        _ = replacing.received(message(hello))
        XCTAssertEqual(sent(replacing.receivedFrame(cells: 3)), [#"{"type":"clear","ref":"play-clear"}"#])
        XCTAssertEqual(replacing.received(message(#"{"type":"event","kind":"cleared","by":"c4"}"#)), .wait)
        XCTAssertEqual(sent(replacing.received(message(#"{"type":"event","kind":"cleared","by":"c3"}"#))).first,
                       #"{"type":"params","charge":20,"paused":true,"ref":"play-1"}"#)
    }

    func testARefusedAddEndsThePlaybackOtherRefusalsAreNoted() throws {
        var session = PlaybackSession(recording: try Recording(recording([])), speed: 0)
        _ = session.received(message(hello))
        _ = session.receivedFrame(cells: 0)
        _ = session.received(message(#"{"type":"error","code":"bad_request","ref":"play-1","message":"no"}"#))
        XCTAssertEqual(session.received(message(#"{"type":"error","code":"limit","ref":"play-2","message":"full"}"#)),
                       .failed("the server refused 2 cell(s) of the recording: full"))
        XCTAssertEqual(session.summary.notes, ["params refused by the server: no"])
    }

    func testAViewerOrASilentServerStopsIt() throws {
        var viewer = PlaybackSession(recording: try Recording(recording([])))
        XCTAssertEqual(viewer.received(message(#"{"type":"hello","client":"c1","role":"viewer","params":{}}"#)),
                       .failed("the room is view only to this playback: give it the room's edit link (--key-file FILE, or $FORCELAYOUT_KEY)"))
        var session = PlaybackSession(recording: try Recording(recording([])), speed: 0)
        _ = session.tick(now: 10)
        _ = session.received(message(hello))
        _ = session.receivedFrame(cells: 0)
        XCTAssertEqual(session.tick(now: 29), .wait)
        XCTAssertEqual(session.tick(now: 31), .failed("no answer from the server for 20 s: the playback stopped at message 0 of 5"))
        XCTAssertEqual(session.connectionLost(now: 32), .failed("the connection ended during the playback, at message 0 of 5"))
    }
}
