import EventBus
import ForceLayout
import XCTest
@testable import LayoutCore

/// A room's history in memory: segments, their bounds, paging through the events, and the
/// moments rebuilt from checkpoints, events and keyframes.
final class HistoryLogTests: XCTestCase {
    private typealias F = HistoryFixtures
    private let hour = HistoryBounds(bytes: 1 << 30, seconds: 3600)

    private func log(_ bounds: HistoryBounds? = nil, cells: Int = 0, at: Int = 1_000) -> HistoryLog {
        var log = HistoryLog(bounds: bounds ?? hour)
        log.start(F.checkpoint(F.state(cells: cells), at: at))
        return log
    }

    func testEventsAndKeyframesJoinTheLastSegmentAndCountTheirBytes() {
        var log = HistoryLog(bounds: hour)
        XCTAssertTrue(log.isEmpty)
        XCTAssertTrue(log.wantsCheckpoint, "an empty history starts with a checkpoint")
        XCTAssertNil(log.oldestAt)
        XCTAssertNil(log.moment(at: 5_000), "nothing kept: no moment")
        log.append(F.envelope(1, .params, at: 900))
        XCTAssertTrue(log.isEmpty, "an event before the first checkpoint is not filed")
        XCTAssertEqual(log.bytes, 0)

        let checkpoint = F.checkpoint(F.state(cells: 3), at: 1_000)
        log.start(checkpoint)
        XCTAssertEqual(log.bytes, checkpoint.bytes)
        let event = F.envelope(1, .added, .cells([4]), at: 1_200)
        log.append(event)
        let frame = F.keyframe(at: 1_300, [(1, 0, 0), (2, 5, 5), (3, -5, 2), (4, 1, 1)])
        log.append(frame)
        XCTAssertEqual(log.bytes, checkpoint.bytes + event.event.replayBytes + frame.bytes)
        XCTAssertEqual(log.segmentCount, 1)
        XCTAssertEqual(log.oldestAt, 1_000)
        XCTAssertEqual(log.newestAt, 1_300)
        XCTAssertFalse(log.wantsCheckpoint)
    }

    func testTheBytesBoundDropsTheOldestSegmentFirstAndNeverTheNewest() {
        let small = F.checkpoint(F.state(cells: 2), at: 1_000)
        var log = HistoryLog(bounds: HistoryBounds(bytes: small.bytes * 3, seconds: 3600))
        log.start(small)
        log.append(F.envelope(1, .params, at: 1_100))
        log.start(F.checkpoint(F.state(cells: 2), at: 2_000, seq: 1))
        log.append(F.envelope(2, .params, at: 2_100))
        XCTAssertEqual(log.segmentCount, 2)
        XCTAssertEqual(log.oldestAt, 1_000)
        // A third segment passes the bound: the oldest goes, the two after it stay.
        log.start(F.checkpoint(F.state(cells: 2), at: 3_000, seq: 2))
        XCTAssertEqual(log.segmentCount, 2)
        XCTAssertEqual(log.oldestAt, 2_000)
        XCTAssertLessThanOrEqual(log.bytes, small.bytes * 3)
        XCTAssertEqual(log.events(before: nil, count: 10).events.map(\.seq), [2])
        // A segment bigger than the whole bound is kept alone: the newest always stays.
        let big = F.checkpoint(F.state(cells: 200), at: 4_000, seq: 2)
        log.start(big)
        XCTAssertEqual(log.segmentCount, 1)
        XCTAssertEqual(log.oldestAt, 4_000)
        XCTAssertEqual(log.bytes, big.bytes)
    }

    func testTheAgeBoundDropsASegmentOnlyWhenAllOfItIsOlderThanTheHorizon() {
        var log = HistoryLog(bounds: HistoryBounds(bytes: 1 << 30, seconds: 10))
        log.start(F.checkpoint(F.state(), at: 0))
        log.append(F.envelope(1, .params, at: 4_000))
        log.start(F.checkpoint(F.state(), at: 5_000, seq: 1))
        log.append(F.envelope(2, .params, at: 12_000))
        // The horizon (15 s - 10 s) is 5 s: the first segment ends at 5 s, the second runs past it.
        log.start(F.checkpoint(F.state(), at: 15_000, seq: 2))
        XCTAssertEqual(log.segmentCount, 3)
        XCTAssertEqual(log.oldestAt, 0, "the first segment's moments reach the horizon")
        log.start(F.checkpoint(F.state(), at: 15_001, seq: 2))
        XCTAssertEqual(log.oldestAt, 5_000, "now all of the first is older than the horizon")
        // The second ends at 15 s, after the horizon: it stays however old its start.
        log.start(F.checkpoint(F.state(), at: 24_000, seq: 2))
        XCTAssertEqual(log.oldestAt, 5_000)
        // The horizon is 30 s: the three segments that end by then go, the one that ends at 40 s stays.
        log.start(F.checkpoint(F.state(), at: 40_000, seq: 2))
        XCTAssertEqual(log.segmentCount, 2)
        XCTAssertEqual(log.oldestAt, 24_000)
    }

    func testAfterAQuietLongerThanTheHistoryKeepsTheNextRecordOpensASegment() {
        var log = HistoryLog(bounds: HistoryBounds(bytes: 1 << 30, seconds: 10))
        log.start(F.checkpoint(F.state(), at: 0))
        log.append(F.envelope(1, .params, at: 4_000))
        XCTAssertFalse(log.wantsCheckpoint(at: 14_000), "its last record is 10 s old")
        XCTAssertTrue(log.wantsCheckpoint(at: 14_001), "older than the history keeps")
        log.start(F.checkpoint(F.state(), at: 14_001, seq: 1))
        XCTAssertEqual(log.oldestAt, 0, "the quiet room's moments up to now are still kept")
        log.start(F.checkpoint(F.state(), at: 24_002, seq: 1))
        XCTAssertEqual(log.oldestAt, 14_001, "and go ten seconds later")
    }

    func testASegmentWantsACheckpointOnceWhatFollowsItsCheckpointPassesTheSegmentSize() {
        let bounds = HistoryBounds(bytes: 8 << 20, seconds: 3600)
        XCTAssertEqual(bounds.segmentBytes, 1 << 20)
        // A checkpoint bigger than a segment's size (10k cells) does not by itself close it:
        // else every event after it would take another.
        var log = HistoryLog(bounds: bounds)
        let state = F.state(cells: 20_000)
        let checkpoint = F.checkpoint(state, at: 1_000)
        XCTAssertGreaterThan(checkpoint.bytes, bounds.segmentBytes)
        log.start(checkpoint)
        XCTAssertFalse(log.wantsCheckpoint)
        let frame = Keyframe(of: state.simulation, at: 1_000, seq: 0)
        var keyframes = 0
        while !log.wantsCheckpoint {
            log.append(frame)
            keyframes += 1
        }
        XCTAssertEqual(keyframes, bounds.segmentBytes / frame.bytes + 1, "closed just past the size, not before")
        XCTAssertEqual(HistoryBounds(bytes: 1 << 20, seconds: 1).segmentBytes, 256 << 10, "never under 256 KiB")
        XCTAssertEqual(HistoryBounds(bytes: 1 << 30, seconds: 1).segmentBytes, 4 << 20,
                       "never over 4 MiB: a moment of a long history replays no more than one of the default's")
    }

    func testEventsArePagedNewestFirstAcrossSegmentsAndSayWhetherOlderOnesAreKept() {
        var log = log()
        for seq in UInt64(1)...5 { log.append(F.envelope(seq, .params, at: 1_000 + Int(seq))) }
        log.start(F.checkpoint(F.state(), at: 2_000, seq: 5))
        for seq in UInt64(6)...8 { log.append(F.envelope(seq, .params, at: 2_000 + Int(seq))) }

        let newest = log.events(before: nil, count: 3)
        XCTAssertEqual(newest.events.map(\.seq), [6, 7, 8])
        XCTAssertTrue(newest.more)
        let across = log.events(before: 7, count: 3)
        XCTAssertEqual(across.events.map(\.seq), [4, 5, 6], "oldest first, across the segments' seam")
        XCTAssertTrue(across.more)
        let last = log.events(before: 4, count: 3)
        XCTAssertEqual(last.events.map(\.seq), [1, 2, 3])
        XCTAssertFalse(last.more, "exactly the oldest three: nothing older")
        XCTAssertEqual(log.events(before: 1, count: 3).events.map(\.seq), [])
        XCTAssertFalse(log.events(before: 1, count: 3).more)
        XCTAssertEqual(log.events(before: nil, count: 100).events.map(\.seq), Array(1...8))
        XCTAssertFalse(log.events(before: nil, count: 8).more)
        XCTAssertTrue(log.events(before: nil, count: 7).more)
        XCTAssertEqual(log.events(before: 1_000, count: 2).events.map(\.seq), [7, 8], "a seq past the newest: the newest")
    }

    func testAMomentBeforeTheOldestIsClampedToIt() throws {
        var log = log(cells: 2, at: 10_000)
        log.append(F.envelope(1, .added, .cells([3]), at: 11_000))
        let early = try XCTUnwrap(log.moment(at: 5_000))
        XCTAssertTrue(early.clamped)
        XCTAssertEqual(early.at, 10_000)
        XCTAssertEqual(Array(early.state.cells.keys), [1, 2])
        XCTAssertEqual(early.state.seq, 0)
        let later = try XCTUnwrap(log.moment(at: 11_000))
        XCTAssertFalse(later.clamped)
        XCTAssertEqual(Array(later.state.cells.keys), [1, 2, 3], "an event filed at the moment is part of it")
        XCTAssertEqual(later.state.seq, 1)
        XCTAssertEqual(Array(try XCTUnwrap(log.moment(at: 10_999)).state.cells.keys), [1, 2])
        XCTAssertEqual(try XCTUnwrap(log.moment(at: .max)).state.seq, 1, "the far future: now")
    }

    func testAMomentTakesTheNearestKeyframeAtOrBeforeItAndLaterOnesForCellsAddedSince() throws {
        var log = log(cells: 2, at: 1_000)
        log.append(F.keyframe(at: 2_000, [(1, 10, 10), (2, 20, 20)]))
        log.append(F.keyframe(at: 3_000, [(1, 11, 11), (2, 21, 21)]))
        log.append(F.envelope(1, .added, .cells([3]), at: 3_500))
        log.append(F.envelope(2, .pinned, .pinned(id: 2, x: -40, y: 40), at: 3_600))
        // A later segment: its keyframes are searched too for cells added before its checkpoint.
        log.start(F.checkpoint(F.state(cells: 3), at: 4_000, seq: 2))
        log.append(F.keyframe(at: 5_000, seq: 2, [(1, 12, 12), (2, -40, 40), (3, 33, 33)]))

        func placed(_ at: Int) throws -> [CellID: (x: Double, y: Double)] {
            let moment = try XCTUnwrap(log.moment(at: at))
            return Dictionary(uniqueKeysWithValues: moment.placed.map { ($0.id, ($0.x, $0.y)) })
        }
        let between = try placed(2_500)
        XCTAssertEqual(try XCTUnwrap(log.moment(at: 2_500)).keyframe?.at, 2_000)
        XCTAssertEqual(between[1]!.x, 10, accuracy: 0.01)
        XCTAssertEqual(between[2]!.y, 20, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(log.moment(at: 3_000)).keyframe?.at, 3_000, "a keyframe at the moment is its own")
        let added = try placed(3_550)
        XCTAssertEqual(added[1]!.x, 11, accuracy: 0.01)
        XCTAssertEqual(added[3]!.x, 33, accuracy: 0.01, "a cell added since the keyframe: where a later one shows it")
        XCTAssertEqual(added[2]!.x, 21, accuracy: 0.01)
        let pinned = try placed(3_700)
        XCTAssertEqual(pinned[2]!.x, -40, "a pinned cell: exactly at its pin")
        XCTAssertEqual(pinned[2]!.y, 40)
        let before = try placed(1_500)
        XCTAssertNil(try XCTUnwrap(log.moment(at: 1_500)).keyframe, "no keyframe yet: the checkpoint's positions")
        let origin = F.state(cells: 2).simulation
        XCTAssertEqual(before[1]!.x, origin.xs[0])
        XCTAssertEqual(before[2]!.y, origin.ys[1])
    }

    func testAWallClockSteppedBackKeepsTheOrderAndTheLookupsSane() throws {
        var log = log(cells: 1, at: 10_000)
        log.append(F.envelope(1, .added, .cells([2]), at: 12_000))
        log.append(F.keyframe(at: 12_500, seq: 1, [(1, 1, 1), (2, 2, 2)]))
        // The clock steps back two seconds: what follows is filed at the latest time seen.
        log.append(F.envelope(2, .added, .cells([3]), at: 10_500))
        log.append(F.keyframe(at: 10_600, seq: 2, [(1, 5, 5), (2, 6, 6), (3, 7, 7)]))
        log.append(F.envelope(3, .removed, .cells([1]), at: 13_000))
        XCTAssertEqual(log.newestAt, 13_000)

        XCTAssertEqual(Array(try XCTUnwrap(log.moment(at: 11_000)).state.cells.keys), [1], "nothing filed after its time is in it")
        let late = try XCTUnwrap(log.moment(at: 12_600))
        XCTAssertEqual(Array(late.state.cells.keys), [1, 2, 3], "the events in the order they came")
        XCTAssertEqual(late.keyframe?.seq, 2, "the keyframe filed last at or before the moment")
        XCTAssertEqual(Array(try XCTUnwrap(log.moment(at: 13_000)).state.cells.keys), [2, 3])
        // A segment opened by the stepped-back clock still answers every moment with one.
        log.start(F.checkpoint(F.state(cells: 4), at: 11_000, seq: 3))
        for at in stride(from: 9_000, through: 14_000, by: 250) {
            let moment = try XCTUnwrap(log.moment(at: at))
            XCTAssertGreaterThanOrEqual(moment.at, 10_000)
            XCTAssertEqual(moment.placed.count, moment.state.cells.count)
        }
    }
}
