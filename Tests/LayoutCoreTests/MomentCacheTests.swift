import EventBus
import ForceLayout
import XCTest
@testable import LayoutCore

/// A room's moments go on from those rebuilt before (`MomentCache`): the same moments as
/// rebuilt from their checkpoints, whichever order they are asked in, and the data columns
/// written once for each `dataSeq`.
final class MomentCacheTests: XCTestCase {
    private typealias F = HistoryFixtures

    /// Two segments of a 30-cell room: cells added, removed, labelled and linked between keyframes.
    private func history() -> HistoryLog {
        var log = HistoryLog(bounds: HistoryBounds(bytes: 1 << 30, seconds: 3600))
        log.start(F.checkpoint(F.state(cells: 30), at: 1_000))
        var seq: UInt64 = 0
        func event(_ kind: EventKind, _ detail: LayoutEvent.Detail, at: Int) {
            seq += 1
            log.append(F.envelope(seq, kind, detail, by: "c1", at: at))
        }
        for step in 0..<20 {
            let at = 1_000 + 100 * (step + 1)
            let id = CellID(31 + step)
            event(.added, .added([id], data: [CellRecordData(id: id, data: CellData(label: "n\(step)"), radius: nil)]), at: at)
            event(.linked, .linked([LinkRecord(Link(source: id, target: 1))]), at: at + 10)
            event(.removed, .cells([CellID(2 + step)]), at: at + 20)
            if step % 3 == 0 { event(.params, .params(Parameters.defaults, changed: ["charge"]), at: at + 30) }
            if step == 10 {
                log.start(F.checkpoint(F.state(cells: 25), at: at + 40, seq: seq))
            }
        }
        return log
    }

    private func assertSame(_ a: HistoryLog.Moment?, _ b: HistoryLog.Moment?, at: Int, file: StaticString = #filePath, line: UInt = #line) {
        guard let a, let b else { return XCTFail("no moment at \(at)", file: file, line: line) }
        XCTAssertEqual(a.state.seq, b.state.seq, "at \(at)", file: file, line: line)
        XCTAssertEqual(a.state.dataSeq, b.state.dataSeq, "at \(at)", file: file, line: line)
        XCTAssertEqual(a.state.cells, b.state.cells, "at \(at)", file: file, line: line)
        XCTAssertEqual(Array(a.state.links.keys), Array(b.state.links.keys), "at \(at)", file: file, line: line)
        XCTAssertEqual(a.state.owners, b.state.owners, "at \(at)", file: file, line: line)
        XCTAssertTrue(HistoryMessages.moment(a, have: nil, ref: nil) == HistoryMessages.moment(b, have: nil, ref: nil),
                      "the same answer at \(at)", file: file, line: line)
    }

    func testMomentsGoneOnFromTheCacheAreThoseRebuiltFromTheirCheckpointsInAnyOrder() {
        let log = history()
        var cache = MomentCache()
        // Forward, back, across the segments' border, and the same moment twice.
        let times = [1_150, 1_450, 1_460, 1_230, 2_500, 2_050, 3_100, 1_090, 2_990, 2_990, 1_000, 900]
        for at in times {
            assertSame(log.moment(at: at, cache: &cache), log.moment(at: at), at: at)
            XCTAssertLessThanOrEqual(cache.states.count, MomentCache.capacity)
        }
    }

    func testADragBackInASegmentGoesOnFromItsCheckpointsStateNotABuiltOne() throws {
        let log = history()
        var cache = MomentCache()
        _ = log.moment(at: 2_000, cache: &cache)
        let origin = try XCTUnwrap(cache.states.last?.origin)
        XCTAssertTrue(cache.states.contains { $0.origin == origin && $0.seq == origin.seq },
                      "the checkpoint's state is kept beside the moment's")
        // Further back in the same segment: the furthest along kept not past it is the checkpoint's.
        let back = try XCTUnwrap(log.moment(at: 1_250).map(\.state.seq))
        XCTAssertEqual(cache.start(origin: origin, through: back)?.seq, origin.seq)
        XCTAssertTrue(cache.states.contains { $0.seq == origin.seq }, "a snapshot stays")
        let last = cache.states.last?.seq
        XCTAssertEqual(cache.start(origin: origin, through: .max)?.seq, last, "forward: the last moment")
        XCTAssertFalse(cache.states.contains { $0.seq == last }, "taken out to go on from in place")
        XCTAssertNil(cache.start(origin: (0, 0), through: .max), "none of another segment")
    }

    func testADragForwardKeepsASnapshotEveryFewHundredEventsAndGoesOnInPlaceBetween() throws {
        var log = HistoryLog(bounds: HistoryBounds(bytes: 1 << 30, seconds: 3600))
        log.start(F.checkpoint(F.state(cells: 10), at: 1_000))
        let events = Int(MomentCache.snapshotEvery) * 3
        for seq in 1...events {
            log.append(F.envelope(UInt64(seq), .params, .params(Parameters.defaults, changed: ["charge"]), by: "c1", at: 1_000 + seq))
        }
        var cache = MomentCache()
        for at in stride(from: 1_050, through: 1_000 + events, by: 50) {
            assertSame(log.moment(at: at, cache: &cache), log.moment(at: at), at: at)
        }
        // kept: snapshots at most snapshotEvery apart, and the moment last made
        let kept = cache.states.map(\.seq).sorted()
        XCTAssertEqual(kept.last, UInt64(events))
        XCTAssertLessThanOrEqual(kept.count, MomentCache.capacity)
        XCTAssertTrue(zip(kept, kept.dropFirst()).allSatisfy { $1 - $0 <= MomentCache.snapshotEvery + 50 }, "\(kept)")
        // back a little: the same moment as rebuilt, from the snapshot before it
        for at in [1_000 + events - 120, 1_000 + events - 700, 1_001] {
            assertSame(log.moment(at: at, cache: &cache), log.moment(at: at), at: at)
        }
    }

    func testDataColumnsAreWrittenOnceForEachDataSeq() throws {
        let log = history()
        var cache = MomentCache()
        let first = try XCTUnwrap(log.moment(at: 1_125, cache: &cache))
        let columns = cache.dataColumns(of: first.state)
        XCTAssertEqual(columns, HistoryMessages.dataColumns(of: first.state))
        XCTAssertTrue(String(decoding: columns, as: UTF8.self).contains("\"n0\""))
        // A params event later: the same dataSeq, the same columns, kept.
        let later = try XCTUnwrap(log.moment(at: 1_135, cache: &cache))
        XCTAssertEqual(later.state.dataSeq, first.state.dataSeq)
        XCTAssertGreaterThan(later.state.seq, first.state.seq)
        XCTAssertEqual(cache.dataColumns(of: later.state), columns)
        // Another dataSeq: written afresh.
        let next = try XCTUnwrap(log.moment(at: 1_215, cache: &cache))
        XCTAssertNotEqual(next.state.dataSeq, first.state.dataSeq)
        XCTAssertEqual(cache.dataColumns(of: next.state), HistoryMessages.dataColumns(of: next.state))
        XCTAssertTrue(String(decoding: cache.dataColumns(of: next.state), as: UTF8.self).contains("\"n1\""))
    }
}

/// A client holding the data of an earlier moment gets the events since (`HistoryLog.dataEvents`).
final class DataEventsTests: XCTestCase {
    private typealias F = HistoryFixtures

    func testTheDataChangesAfterHaveThroughTheMomentOldestFirstAcrossSegments() throws {
        var log = HistoryLog(bounds: HistoryBounds(bytes: 1 << 30, seconds: 3600))
        log.start(F.checkpoint(F.state(cells: 4), at: 1_000, seq: 2))
        log.append(F.envelope(3, .added, .cells([5]), at: 1_100))
        log.append(F.envelope(4, .params, .params(Parameters.defaults, changed: ["charge"]), at: 1_200))
        log.append(F.envelope(5, .linked, .linked([LinkRecord(Link(source: 1, target: 5))]), at: 1_300))
        log.start(F.checkpoint(F.state(cells: 5), at: 1_400, seq: 5))
        log.append(F.envelope(7, .updated, .updated([CellRecordData(id: 1, data: CellData(label: "a"), radius: nil)]), at: 1_500))
        log.append(F.envelope(8, .removed, .cells([2]), at: 1_600))
        log.append(F.envelope(9, .pinned, .pinned(id: 1, x: 0, y: 0), at: 1_700))
        XCTAssertEqual(log.dataEvents(after: 3, through: 8)?.map(\.seq), [5, 7, 8], "not the params, across the segments")
        XCTAssertEqual(log.dataEvents(after: 2, through: 5)?.map(\.seq), [3, 5])
        XCTAssertEqual(log.dataEvents(after: 7, through: 9)?.map(\.seq), [8])
        XCTAssertNil(log.dataEvents(after: 8, through: 8), "nothing to send: the client has it")
        XCTAssertNil(log.dataEvents(after: 8, through: 5), "going back: the whole data")
        XCTAssertNil(log.dataEvents(after: 1, through: 5), "from before the history kept")
        XCTAssertNil(log.dataEvents(after: 2, through: 8, limit: 2), "past the limit: the whole data is smaller")
        let one = try XCTUnwrap(log.dataEvents(after: 2, through: 3)).first?.event.replayBytes ?? 0
        XCTAssertNil(log.dataEvents(after: 2, through: 3, bytes: one - 1))
        log.append(F.envelope(10, .restored, .restored(moment: 1_050, ids: [1], pinned: [], records: [], links: []), at: 1_800))
        log.append(F.envelope(11, .added, .cells([6]), at: 1_900))
        XCTAssertNil(log.dataEvents(after: 8, through: 11), "a restore replaced the data whole")
    }

    func testAMomentAnswerCarriesTheEventsSinceInsteadOfTheData() throws {
        var log = HistoryLog(bounds: HistoryBounds(bytes: 1 << 30, seconds: 3600))
        log.start(F.checkpoint(F.state(cells: 2), at: 1_000, seq: 1))
        log.append(F.envelope(2, .added, .added([3], data: [CellRecordData(id: 3, data: CellData(label: "c"), radius: nil)]), at: 1_100))
        var cache = MomentCache()
        let moment = try XCTUnwrap(log.moment(at: 1_200, cache: &cache))
        let since = try XCTUnwrap(log.dataEvents(after: 1, through: moment.state.dataSeq))
        let text = String(decoding: HistoryMessages.moment(moment, have: 1, since: since, ref: nil, cache: &cache), as: UTF8.self)
        XCTAssertTrue(text.contains(#","dataSeq":2,"base":1,"since":[{"seq":2,"kind":"added","by":"c1","tick":0,"at":1100,"ids":[3],"cells":[{"id":3,"label":"c"}]}]}"#), text)
        XCTAssertFalse(text.contains(#""cells":{"#), "not the columns")
        let whole = String(decoding: HistoryMessages.moment(moment, have: nil, ref: nil, cache: &cache), as: UTF8.self)
        XCTAssertTrue(whole.contains(#""cells":{"id":[1,2,3]"#), whole)
    }
}
