import EventBus
import ForceLayout
import XCTest
@testable import LayoutCore

/// `GET /export/NAME.flhistory`'s file (`HistoryLog.recording`): it starts with a checkpoint of
/// the moment `from` (the room whole then, its cells placed as `moment` places them), holds the
/// events and keyframes of (`from`, `to`] in the order they happened, and ends with a keyframe of
/// `to` when events came after the last one; `HistoryFileFormat.read` gives it all back.
final class HistoryRecordingTests: XCTestCase {
    /// A room's history: cells 1 and 2 at t=1000; cell 3 added at 2000; a keyframe at 2500; a
    /// link at 3000; a keyframe at 3500; cell 1 removed at 4000.
    private func log() -> HistoryLog {
        var log = HistoryLog(bounds: HistoryBounds(bytes: 1 << 30, seconds: 1 << 20))
        let layout = LayoutSnapshot(parameters: Parameters(), nextID: 3,
                                    cells: [CellRecord(id: 1, x: 0, y: 0, pinned: false), CellRecord(id: 2, x: 10, y: 0, pinned: true)])
        var catalog = CellCatalog()
        catalog[2] = CellData(label: "two")
        log.start(Checkpoint(at: 1000, tick: 5, seq: 0, state: SavedState(layout: layout, reservation: 3, catalog: catalog)))
        log.append(Self.event(1, .added, .added([3], data: [CellRecordData(id: 3, data: CellData(label: "three"), radius: 7)]), at: 2000))
        log.append(Keyframe(at: 2500, tick: 9, seq: 1, placed: [(1, -4, 2), (2, 10, 0), (3, 6, 8)]))
        log.append(Self.event(2, .linked, .linked([LinkRecord(Link(source: 2, target: 3))]), at: 3000))
        log.append(Keyframe(at: 3500, tick: 12, seq: 2, placed: [(1, -5, 3), (2, 10, 0), (3, 7, 9)]))
        log.append(Self.event(3, .removed, .cells([1]), at: 4000))
        return log
    }

    static func event(_ seq: UInt64, _ kind: EventKind, _ detail: LayoutEvent.Detail, at: Int) -> Envelope<LayoutEvent> {
        Envelope(seq: seq, event: LayoutEvent(kind: kind, by: "c1", tick: Int(seq), detail: detail, at: at))
    }

    private func read(_ bytes: [UInt8]?) throws -> [HistoryFileFormat.Record] {
        let bytes = try XCTUnwrap(bytes)
        let (records, whole) = try XCTUnwrap(HistoryFileFormat.read(bytes))
        XCTAssertEqual(whole, bytes.count, "every record whole")
        return records
    }

    /// What each record is: "checkpoint@AT", "event SEQ", "keyframe@AT".
    private func outline(_ records: [HistoryFileFormat.Record]) -> [String] {
        records.map { record in
            switch record {
            case .checkpoint(let point): "checkpoint@\(point.at)"
            case .event(let envelope): "event \(envelope.seq)"
            case .keyframe(let frame): "keyframe@\(frame.at)"
            }
        }
    }

    func testASpanStartsWithItsMomentWholeAndHoldsWhatCameAfter() throws {
        let records = try read(log().recording(from: 2200, to: 3600))
        XCTAssertEqual(outline(records), ["checkpoint@2200", "keyframe@2500", "event 2", "keyframe@3500"],
                       "no closing keyframe: nothing happened after the last")
        guard case .checkpoint(let first) = records[0] else { return XCTFail("no checkpoint first") }
        XCTAssertEqual(first.seq, 1, "it includes the add before it")
        let cells = first.state.layout.cells
        XCTAssertEqual(cells.map(\.id), [1, 2, 3])
        XCTAssertEqual(cells[0].x, 0, accuracy: 1e-9, "cell 1 where the checkpoint had it (no keyframe before 2200)")
        XCTAssertEqual(cells[2].x, 6, accuracy: 1e-3, "cell 3, added since, where the first keyframe after shows it")
        XCTAssertTrue(cells[1].pinned)
        XCTAssertEqual(first.state.catalog[3].label, "three")
        XCTAssertEqual(first.state.catalog[2].label, "two")
        XCTAssertEqual(first.state.layout.cells[2].radius, 7)
    }

    func testTheWholeHistoryEndsWithAKeyframeOfItsLastMoment() throws {
        let records = try read(log().recording(from: nil, to: nil))
        XCTAssertEqual(outline(records), ["checkpoint@1000", "event 1", "keyframe@2500", "event 2", "keyframe@3500", "event 3", "keyframe@4000"])
        guard case .keyframe(let last) = records.last else { return XCTFail("no closing keyframe") }
        XCTAssertEqual(last.ids, [2, 3], "cell 1 was removed")
        XCTAssertEqual(last.seq, 3)
        let positions = last.positions()
        XCTAssertEqual(positions[3]!.x, 7, accuracy: 1e-3)
        XCTAssertEqual(positions[3]!.y, 9, accuracy: 1e-3)
    }

    func testAKeyframeWritesItsIdsOnlyWhenTheyChange() throws {
        // Cells 1, 2, 3 at 2500 and 3500, as in the checkpoint: neither writes its ids, yet both
        // read back with them; the closing keyframe (cells 2 and 3) writes its own.
        let bytes = try XCTUnwrap(log().recording(from: 2200, to: nil))
        var offset = HistoryFileFormat.header.count
        var flags: [UInt8] = []
        while offset < bytes.count {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
            if bytes[offset + 8] == HistoryFileFormat.RecordType.keyframe.rawValue { flags.append(bytes[offset + 9 + 44]) }
            offset += 8 + length
        }
        XCTAssertEqual(flags, [0, 0, 1])
        let records = try read(bytes)
        guard case .keyframe(let frame) = records[3] else { return XCTFail("not a keyframe") }
        XCTAssertEqual(frame.ids, [1, 2, 3])
    }

    func testASpanBeforeTheOldestMomentStartsThere() throws {
        let records = try read(log().recording(from: 5, to: 1500))
        XCTAssertEqual(outline(records), ["checkpoint@1000"])
    }

    func testNothingKeptIsNoRecording() {
        XCTAssertNil(HistoryLog(bounds: HistoryBounds(bytes: 1 << 20, seconds: 60)).recording(from: nil, to: nil))
    }

    func testASpanIsTwoTimesInMilliseconds() {
        XCTAssertEqual(try HistorySpan.parse(from: nil, to: nil).get(), HistorySpan(from: nil, to: nil))
        XCTAssertEqual(try HistorySpan.parse(from: "1700000000000", to: nil).get(), HistorySpan(from: 1_700_000_000_000, to: nil))
        XCTAssertEqual(try HistorySpan.parse(from: "5", to: "5").get(), HistorySpan(from: 5, to: 5))
        for (from, to, why) in [("-5", nil, "from must be a time in ms since 1970 (digits only, as the history's at), not \"-5\""),
                                (nil, "1e3", "to must be a time in ms since 1970 (digits only, as the history's at), not \"1e3\""),
                                ("", nil, "from must be a time in ms since 1970 (digits only, as the history's at), not \"\""),
                                ("9", "8", "from (9) is after to (8)")] as [(String?, String?, String)] {
            guard case .failure(let refusal) = HistorySpan.parse(from: from, to: to) else { XCTFail("\(from ?? "-") \(to ?? "-") taken"); continue }
            XCTAssertEqual(refusal.description, why)
        }
    }
}
