import EventBus
import ForceLayout
import XCTest
@testable import LayoutCluster
@testable import LayoutCore

/// A cluster room's history in its Redis stream, with no Redis: the entries' IDs, when the
/// stream is trimmed, and reading XRANGE replies back into a history.
final class HistoryStreamTests: XCTestCase {
    private func id(_ text: String) throws -> HistoryStreamID { try XCTUnwrap(HistoryStreamID(text)) }

    func testIDsFollowTheRecordsTimeAndNeverGoBack() throws {
        XCTAssertEqual(HistoryStreamID.next(after: nil, at: 1000), try id("1000-0"))
        XCTAssertEqual(HistoryStreamID.next(after: nil, at: 0), try id("0-1"), "0-0 is no ID XADD takes")
        let first = HistoryStreamID.next(after: nil, at: 1000)
        let same = HistoryStreamID.next(after: first, at: 1000)
        XCTAssertEqual(same.description, "1000-1", "a second record within one ms")
        // A clock stepped back (or the next owner's, behind): the last ms, counting on.
        let back = HistoryStreamID.next(after: same, at: 900)
        XCTAssertEqual(back.description, "1000-2")
        let later = HistoryStreamID.next(after: back, at: 1001)
        XCTAssertEqual(later.description, "1001-0")
        XCTAssertTrue(first < same && same < back && back < later)
        XCTAssertEqual(HistoryStreamID.next(after: HistoryStreamID(ms: 5, n: .max), at: 5).description, "6-0")
        XCTAssertEqual(later.after, "(1001-0", "XRANGE's exclusive start")
    }

    func testIDsAreParsedAsRedisWritesThemAndNothingElse() throws {
        XCTAssertEqual(try id("1718000000000-12"), HistoryStreamID(ms: 1_718_000_000_000, n: 12))
        for bad in ["", "1", "1-", "-1", "1-2-3", "+1-2", "1-+2", "a-1", "1-x", " 1-2", "99999999999999999999999-1", "1 -2"] {
            XCTAssertNil(HistoryStreamID(bad), bad)
        }
    }

    func testTheStreamIsTrimmedToTheOldestKeptCheckpointWhenTheLogDropsSegments() throws {
        var segments = HistoryStreamSegments()
        let a = try id("1-0"), b = try id("2-0"), c = try id("3-0"), d = try id("4-0")
        XCTAssertNil(segments.started(a, dropped: 0), "nothing dropped: nothing trimmed")
        XCTAssertNil(segments.started(b, dropped: 0))
        XCTAssertEqual(segments.started(c, dropped: 1), b, "a dropped: the stream starts at b's checkpoint")
        // A checkpoint that never reached the stream bounds nothing.
        XCTAssertNil(segments.started(nil, dropped: 0))
        XCTAssertEqual(segments.started(d, dropped: 2), d, "b and c dropped; the unwritten one is kept but unreadable alone")
        XCTAssertEqual(segments.count, 2)
        XCTAssertEqual(segments.oldest, d)
        // More dropped than known (a load that began mid-stream): everything known goes.
        XCTAssertEqual(segments.started(a, dropped: 9), a)
        XCTAssertEqual(segments.count, 1)
    }

    func testRecordsPastTheBoundAreDroppedUntilTheNextCheckpointAndSaidOnce() throws {
        var writer = HistoryStreamWriter(maxQueuedBytes: 1000)
        guard case .write(let first, nil) = writer.checkpoint(bytes: 600, at: 10, ids: [1, 2], dropped: 0) else {
            return XCTFail("the first checkpoint goes")
        }
        XCTAssertEqual(first.description, "10-0")
        XCTAssertEqual(writer.record(bytes: 300, at: 10), .write(try id("10-1"), trim: nil))
        XCTAssertEqual(writer.queuedBytes, 900)
        // Redis is slow: the next does not fit, nor do those after it even once room is made
        // (an event lost: the ones after it would rebuild wrong moments).
        XCTAssertEqual(writer.record(bytes: 200, at: 11), .drop(say: true, trim: nil))
        XCTAssertEqual(writer.record(bytes: 10, at: 12), .drop(say: false, trim: nil), "said once")
        XCTAssertFalse(writer.answered(bytes: 600, failed: false))
        XCTAssertEqual(writer.record(bytes: 10, at: 13), .drop(say: false, trim: nil))
        XCTAssertTrue(writer.gap)
        // A checkpoint starts a segment readable alone: records go again, with IDs after the last.
        XCTAssertTrue(writer.carries([1, 2, 3]))
        XCTAssertEqual(writer.checkpoint(bytes: 100, at: 9, ids: [1, 2, 3], dropped: 1), .write(try id("10-2"), trim: try id("10-2")))
        XCTAssertFalse(writer.gap)
        XCTAssertFalse(writer.carries([1, 2, 3]), "a keyframe of the checkpoint's cells leaves its ids out")
        XCTAssertEqual(writer.record(bytes: 10, at: 20, ids: [4]), .write(try id("20-0"), trim: nil))
        XCTAssertTrue(writer.carries([1, 2, 3]))
        // A write that failed opens a gap too, said again (a new one since the checkpoint).
        XCTAssertTrue(writer.answered(bytes: 10, failed: true))
        XCTAssertEqual(writer.record(bytes: 10, at: 21), .drop(say: false, trim: nil))
        // A checkpoint that does not fit is dropped too, but what the log dropped is trimmed.
        XCTAssertEqual(writer.checkpoint(bytes: 5000, at: 30, ids: [], dropped: 1), .drop(say: false, trim: nil),
                       "the segment left has no checkpoint written: nothing to trim to")
        XCTAssertEqual(writer.queuedBytes, 400)
    }

    // MARK: reading replies

    private let base = 1_718_000_000_000

    private func checkpoint(at: Int, seq: UInt64, cells: Int) -> (Checkpoint, Simulation) {
        let simulation = Simulation(seed: 3)
        if cells > 0 { _ = simulation.add(count: cells, spawn: .random) }
        let state = SavedState(layout: simulation.snapshot(), reservation: CellID(cells + 1))
        return (Checkpoint(at: at, tick: 0, seq: seq, state: state), simulation)
    }

    private func added(_ ids: [CellID], seq: UInt64, at: Int) -> Envelope<LayoutEvent> {
        Envelope(seq: seq, event: LayoutEvent(kind: .added, by: "c1@a", tick: 1, detail: .cells(ids), at: at))
    }

    private func entry(_ id: String, _ record: [UInt8], field: String = HistoryStreamEntry.field) -> RedisReply {
        .array([.string(Array(id.utf8)), .array([.string(Array(field.utf8)), .string(record)])])
    }

    /// An XRANGE reply of a stream a room's owner wrote: a checkpoint of two cells, three cells
    /// added, a keyframe with the five ids, one without ids (the same ones), then a cleared.
    private func stream() -> (reply: [RedisReply], keyframes: [Keyframe]) {
        let (point, simulation) = checkpoint(at: base, seq: 4, cells: 2)
        let first = HistoryFileFormat.checkpoint(point)
        let more = simulation.add(count: 3, spawn: .random)
        let add = HistoryFileFormat.event(added(more, seq: 5, at: base + 10))
        let frame = Keyframe(of: simulation, at: base + 20, seq: 5)
        simulation.step()
        let moved = Keyframe(of: simulation, at: base + 30, seq: 5)
        let clear = HistoryFileFormat.event(Envelope(seq: 6, event: LayoutEvent(kind: .cleared, by: "c1@a", tick: 2,
                                                                                detail: .cells(simulation.ids), at: base + 40)))
        return ([
            entry("\(base)-0", first),
            entry("\(base + 10)-0", add),
            entry("\(base + 20)-0", HistoryFileFormat.keyframe(frame, withIDs: true)),
            entry("\(base + 30)-0", HistoryFileFormat.keyframe(moved, withIDs: false)),
            entry("\(base + 40)-0", clear),
        ], [frame, moved])
    }

    func testARepliesEntriesAreReadBackIntoTheHistoryTheOwnerWrote() throws {
        let (items, keyframes) = stream()
        let chunk = try XCTUnwrap(HistoryStreamChunk(.array(items)))
        XCTAssertEqual(chunk.count, 5)
        XCTAssertEqual(chunk.last, try id("\(base + 40)-0"))
        var reading = HistoryStreamLog(bounds: HistoryBounds(bytes: 1 << 20, seconds: 3600))
        XCTAssertNil(reading.apply(chunk))
        XCTAssertEqual(reading.skipped, 0)
        XCTAssertEqual(reading.last, chunk.last)
        XCTAssertEqual(reading.segments.starts, [try id("\(base)-0")])
        let log = reading.log
        XCTAssertEqual(log.lastSeq, 6)
        XCTAssertEqual(log.events(before: nil, count: 10).events.map(\.seq), [5, 6])
        // The moment after the keyframe without ids: its positions, the five cells' ids.
        let moment = try XCTUnwrap(log.moment(at: base + 35))
        XCTAssertEqual(moment.state.cells.keys.map { $0 }, keyframes[1].ids)
        XCTAssertEqual(moment.keyframe?.at, base + 30)
        XCTAssertEqual(moment.keyframe?.quantized, keyframes[1].quantized)
        XCTAssertEqual(try XCTUnwrap(log.moment(at: base + 45)).state.cells.count, 0, "after the clear")
        XCTAssertEqual(try XCTUnwrap(log.moment(at: base + 5)).state.cells.count, 2, "before the add")
    }

    func testReadingInChunksGivesWhatReadingAtOnceGives() throws {
        let (items, _) = stream()
        var whole = HistoryStreamLog(bounds: HistoryBounds(bytes: 1 << 20, seconds: 3600))
        whole.apply(try XCTUnwrap(HistoryStreamChunk(.array(items))))
        var parts = HistoryStreamLog(bounds: HistoryBounds(bytes: 1 << 20, seconds: 3600))
        // Split after the keyframe with ids: the next one's ids come from the first chunk.
        parts.apply(try XCTUnwrap(HistoryStreamChunk(.array(Array(items[..<3])))))
        parts.apply(try XCTUnwrap(HistoryStreamChunk(.array(Array(items[3...])))))
        XCTAssertEqual(parts.skipped, 0)
        XCTAssertEqual(parts.last, whole.last)
        for at in [base, base + 15, base + 35, base + 45] {
            let a = try XCTUnwrap(whole.log.moment(at: at)), b = try XCTUnwrap(parts.log.moment(at: at))
            XCTAssertEqual(a.state.cells.keys.map { $0 }, b.state.cells.keys.map { $0 })
            XCTAssertEqual(a.keyframe?.quantized, b.keyframe?.quantized)
            XCTAssertEqual(a.placed.map(\.id), b.placed.map(\.id))
        }
        // Read again from before its last: nothing is applied twice.
        parts.apply(try XCTUnwrap(HistoryStreamChunk(.array(Array(items[4...])))))
        XCTAssertEqual(parts.skipped, 1)
        XCTAssertEqual(parts.log.events(before: nil, count: 10).events.map(\.seq), [5, 6])
    }

    func testEntriesThatAreNotWholeRecordsOfTheRoomAreSkippedAndReadOnAfter() throws {
        let (items, _) = stream()
        var damaged = HistoryFileFormat.event(added([9], seq: 7, at: base + 50))
        damaged[damaged.count - 2] ^= 0xFF  // the CRC no longer matches
        let event8 = HistoryFileFormat.event(added([10], seq: 8, at: base + 60))
        let reply: [RedisReply] = [
            // Before any checkpoint: belongs to no segment.
            entry("\(base - 10)-0", HistoryFileFormat.event(added([1], seq: 3, at: base - 10))),
        ] + items + [
            entry("\(base + 50)-0", damaged),
            entry("\(base + 55)-0", event8 + [0]),  // a byte after the record
            entry("\(base + 56)-0", event8, field: "x"),
            .array([.string(Array("not-an-id".utf8)), .array([])]),
            .integer(4),
            entry("\(base + 57)-0", HistoryFileFormat.event(added([11], seq: 6, at: base + 57))),  // numbered back
            entry("\(base + 60)-0", event8),
            entry("\(base + 70)-0", [1, 2, 3]),
        ]
        let chunk = try XCTUnwrap(HistoryStreamChunk(.array(reply)))
        XCTAssertEqual(chunk.count, reply.count, "every item counts: fewer than asked for ends the read")
        XCTAssertEqual(chunk.last, try id("\(base + 70)-0"), "the next read starts after the last entry, record or not")
        var reading = HistoryStreamLog(bounds: HistoryBounds(bytes: 1 << 20, seconds: 3600))
        reading.apply(chunk)
        XCTAssertEqual(reading.log.events(before: nil, count: 10).events.map(\.seq), [5, 6, 8])
        XCTAssertEqual(reading.skipped, 5, "the orphan event, the damaged one, the one with a byte more, the one numbered back, the last")
        XCTAssertNil(HistoryStreamChunk(.error("WRONGTYPE Operation against a key holding the wrong kind of value")))
        XCTAssertEqual(HistoryStreamChunk(.array([]))?.count, 0)
    }

    func testARestoresEventFollowsTheCheckpointThatHoldsIt() throws {
        // A restore opens a segment whose checkpoint is the restored room, numbered with the
        // `restored` event after it (`HistoryRecorder`): that event is kept.
        let (first, _) = checkpoint(at: base, seq: 4, cells: 2)
        let (second, _) = checkpoint(at: base + 20, seq: 6, cells: 0)
        let restored = Envelope(seq: 6, event: LayoutEvent(kind: .restored, by: "c2@b", tick: 3,
                                                           detail: .restored(moment: base, ids: [], pinned: [], records: [], links: []),
                                                           at: base + 20))
        var reading = HistoryStreamLog(bounds: HistoryBounds(bytes: 1 << 20, seconds: 3600))
        reading.apply(HistoryStreamChunk(entries: [
            HistoryStreamEntry(id: try id("\(base)-0"), record: HistoryFileFormat.checkpoint(first)),
            HistoryStreamEntry(id: try id("\(base + 10)-0"), record: HistoryFileFormat.event(added([3], seq: 5, at: base + 10))),
            HistoryStreamEntry(id: try id("\(base + 20)-0"), record: HistoryFileFormat.checkpoint(second)),
            HistoryStreamEntry(id: try id("\(base + 20)-1"), record: HistoryFileFormat.event(restored)),
        ]))
        XCTAssertEqual(reading.skipped, 0)
        XCTAssertEqual(reading.log.events(before: nil, count: 10).events.map(\.event.kind), [.added, .restored])
        XCTAssertEqual(reading.log.segmentCount, 2)
    }

    func testSegmentsTheBoundsDropAreTrimmedFromTheStreamOnRead() throws {
        // Three checkpoints an hour apart, a bound of 50 minutes: the first goes (all it holds is
        // older than that once the second began before the bound).
        var reading = HistoryStreamLog(bounds: HistoryBounds(bytes: 1 << 30, seconds: 3000))
        var reply: [RedisReply] = []
        for hour in 0..<3 {
            let (point, _) = checkpoint(at: base + hour * 3_600_000, seq: UInt64(hour), cells: 1)
            reply.append(entry("\(base + hour * 3_600_000)-0", HistoryFileFormat.checkpoint(point)))
        }
        let trim = reading.apply(try XCTUnwrap(HistoryStreamChunk(.array(reply))))
        XCTAssertEqual(trim, try id("\(base + 3_600_000)-0"))
        XCTAssertEqual(reading.log.segmentCount, 2)
        XCTAssertEqual(reading.segments.oldest, trim)
    }
}
