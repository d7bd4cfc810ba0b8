import EventBus
import ForceLayout
import XCTest
@testable import LayoutCore

/// What takes a client's data as of a later moment back to an earlier one (`MomentPatch`):
/// applied as a page applies it (gone cells with their links, then cells, unlinked, links) to
/// the later moment's data, it gives the earlier moment's, for every pair of moments of a
/// history that adds, removes, brings back (an undo), updates, links and unlinks.
final class MomentPatchTests: XCTestCase {
    private typealias F = HistoryFixtures

    private struct Data: Equatable {
        var cells: [CellID: CellRecordData] = [:]
        var links: [LinkEnds: LinkRecord] = [:]

        init(_ state: MomentState) {
            state.forEachCell { id, record in cells[id] = record }
            state.forEachLink { ends, record in links[ends] = record }
        }

        mutating func apply(_ patch: MomentPatch) {
            for id in patch.gone {
                cells[id] = nil
                links = links.filter { $0.key.source != id && $0.key.target != id }
            }
            for record in patch.cells { cells[record.id] = record }
            for ends in patch.unlinked { links[ends] = nil }
            for record in patch.links { links[MomentState.ends(record.link.source, record.link.target)] = record }
        }
    }

    private func history() -> HistoryLog {
        var log = HistoryLog(bounds: HistoryBounds(bytes: 1 << 30, seconds: 3600))
        log.start(F.checkpoint(F.state(cells: 12), at: 1_000))
        var seq: UInt64 = 0
        func event(_ kind: EventKind, _ detail: LayoutEvent.Detail) {
            seq += 1
            log.append(F.envelope(seq, kind, detail, by: "c1", at: 1_000 + 10 * Int(seq)))
        }
        event(.linked, .linked((1..<12).map { LinkRecord(Link(source: $0, target: $0 + 1)) }))
        event(.updated, .updated([CellRecordData(id: 3, data: CellData(label: "three"), radius: nil)]))
        event(.removed, .cells([5, 6]))
        event(.added, .added([13], data: [CellRecordData(id: 13, data: CellData(label: "new"), radius: 8)]))
        event(.linked, .linked([LinkRecord(Link(source: 13, target: 3, distance: 50))]))
        event(.updated, .updated([CellRecordData(id: 3, data: CellData(label: "THREE", group: "g"), radius: 4)]))
        event(.unlinked, .unlinked([LinkEnds(source: 8, target: 7)]))
        event(.added, .cells([5]))  // an undo brings 5 back, then links it again
        event(.linked, .linked([LinkRecord(Link(source: 5, target: 4)), LinkRecord(Link(source: 5, target: 13))]))
        event(.params, .params(Parameters.defaults, changed: ["charge"]))
        event(.removed, .cells([13, 1]))
        event(.linked, .linked([LinkRecord(Link(source: 2, target: 9, strength: 0.5))]))
        return log
    }

    func testAPatchTakesALaterMomentsDataBackToAnEarlierOnesForEveryPair() throws {
        let log = history()
        let times = Array(stride(from: 1_000, through: 1_130, by: 10))
        let moments = try times.map { try XCTUnwrap(log.moment(at: $0)) }
        for (i, earlier) in moments.enumerated() {
            for later in moments[(i + 1)...] where later.state.dataSeq > earlier.state.dataSeq {
                let events = try XCTUnwrap(log.dataEvents(after: earlier.state.dataSeq, through: later.state.dataSeq,
                                                          limit: MomentPatch.most, bytes: .max))
                let patch = try XCTUnwrap(MomentPatch(undoing: events, to: earlier.state))
                var data = Data(later.state)
                data.apply(patch)
                XCTAssertEqual(data, Data(earlier.state), "from \(later.at) back to \(earlier.at)")
                XCTAssertLessThan(patch.cells.count + patch.links.count, Data(earlier.state).cells.count + Data(earlier.state).links.count,
                                  "smaller than the whole data")
            }
        }
    }

    func testOnlyWhatChangedAndTheLinksOfCellsThatCameAndWent() throws {
        let log = history()
        let earlier = try XCTUnwrap(log.moment(at: 1_020)), later = try XCTUnwrap(log.moment(at: 1_040))
        // between them: 5 and 6 removed, 13 added
        let events = try XCTUnwrap(log.dataEvents(after: earlier.state.dataSeq, through: later.state.dataSeq))
        let patch = try XCTUnwrap(MomentPatch(undoing: events, to: earlier.state))
        XCTAssertEqual(patch.cells.map(\.id), [5, 6])
        XCTAssertEqual(patch.gone, [13])
        XCTAssertEqual(patch.links.map { [$0.link.source, $0.link.target] }, [[4, 5], [5, 6], [6, 7]], "the links 5 and 6 had")
        XCTAssertEqual(patch.unlinked, [])
    }

    func testTooManyCellsOrAnEventThatDoesNotSayWhatItChangedGiveNone() {
        let state = MomentState(checkpoint: F.checkpoint(F.state(cells: 3), at: 0))
        let many = F.envelope(1, .removed, .cells(Array(1...50)), at: 1)
        XCTAssertNil(MomentPatch(undoing: [many], to: state, limit: 20))
        XCTAssertNotNil(MomentPatch(undoing: [many], to: state, limit: 50))
        XCTAssertNil(MomentPatch(undoing: [F.envelope(1, .added, .relayed, at: 1)], to: state))
        XCTAssertEqual(MomentPatch(undoing: [F.envelope(1, .params, .params(Parameters.defaults, changed: []), at: 1)], to: state)?.cells, [])
    }

    func testItIsWrittenAsThePatchMember() throws {
        let log = history()
        let earlier = try XCTUnwrap(log.moment(at: 1_020)), later = try XCTUnwrap(log.moment(at: 1_040))
        let events = try XCTUnwrap(log.dataEvents(after: earlier.state.dataSeq, through: later.state.dataSeq))
        let patch = try XCTUnwrap(MomentPatch(undoing: events, to: earlier.state))
        var cache = MomentCache()
        let bytes = HistoryMessages.moment(earlier, have: later.state.dataSeq, patch: patch, ref: "r", cache: &cache)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Foundation.Data(bytes)) as? [String: Any])
        XCTAssertEqual(json["base"] as? Int, Int(later.state.dataSeq))
        XCTAssertNil(json["cells"])
        let body = try XCTUnwrap(json["patch"] as? [String: Any])
        XCTAssertEqual((body["cells"] as? [String: Any])?["id"] as? [Int], [5, 6])
        XCTAssertEqual(body["gone"] as? [Int], [13])
        XCTAssertEqual((body["links"] as? [String: Any])?["source"] as? [Int], [4, 5, 6])
        XCTAssertEqual((body["unlinked"] as? [String: Any])?["source"] as? [Int], [])
    }
}
