import EventBus
import ForceLayout
import Foundation
import XCTest
@testable import ImportTool
@testable import LayoutCore

/// One recording and its plan, checked by both languages: `Tests/fixtures/playback-sample.flhistory`
/// (written here by the server's own `HistoryFileFormat`: a checkpoint, adds with data, links,
/// params, pin and unpin, an update, an unlink, a remove, a clear, adds over the limits, a
/// restore's checkpoint, failovers with and without parameters, keyframes with and without ids) and
/// `playback-sample.plan.json`, what `PlaybackPlan` makes of it for the room parameters and
/// limits it names (each message's wire form in the recording's ids, its answer, offset and
/// adds). The page's port (`Public/playbackplan.js`, `Tests/web/playbackplan.test.mjs`) must
/// make the same messages, byte for byte. A change of the plan or of the format fails here
/// until the fixtures are written again, and then fails the page until it follows:
///
///     FORCELAYOUT_WRITE_FIXTURES=1 swift test --filter PlaybackFixtureTests
final class PlaybackFixtureTests: XCTestCase {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")
    private static let start = 1_763_700_000_000

    private static func attrs(_ text: String) -> Attrs? {
        try! Attrs.make(try! JSONParser.parse(Array(text.utf8)), maxBytes: 1024).get()
    }

    private static func event(_ seq: UInt64, _ kind: EventKind, _ detail: LayoutEvent.Detail, at: Int) -> [UInt8] {
        HistoryFileFormat.event(Envelope(seq: seq, event: LayoutEvent(kind: kind, by: "c2", tick: Int(seq) * 3, detail: detail, at: start + at)))
    }

    private static func keyframe(at: Int, _ placed: [(id: CellID, x: Double, y: Double)], withIDs: Bool = true) -> [UInt8] {
        HistoryFileFormat.keyframe(Keyframe(at: start + at, tick: at / 50, seq: 0, placed: placed), withIDs: withIDs)
    }

    private static func checkpoint(at: Int, seq: UInt64, parameters: Parameters, cells: [CellRecord], links: [Link],
                                   data: [CellID: CellData], linkAttrs: [(CellID, CellID, Attrs?)] = []) -> [UInt8] {
        var catalog = CellCatalog()
        for (id, cell) in data { catalog[id] = cell }
        for (a, b, attrs) in linkAttrs { catalog[link: a, b] = attrs }
        let layout = LayoutSnapshot(parameters: parameters, nextID: (cells.map(\.id).max() ?? 0) + 1, cells: cells, links: links)
        return HistoryFileFormat.checkpoint(Checkpoint(at: start + at, tick: at / 50, seq: seq,
                                                       state: SavedState(layout: layout, reservation: layout.nextID, catalog: catalog)))
    }

    /// The recording's bytes.
    static func recording() -> [UInt8] {
        var charged = Parameters()
        charged.charge = 15
        var stronger = charged
        stronger.charge = 30
        var paused = stronger
        paused.paused = true
        var later = charged
        later.charge = 25
        let one = CellData(label: "one", color: "#aa0000", key: .string("n1"), attrs: attrs(#"{"club":"Mr. Hi","w":2}"#))
        let long = String(repeating: "Les Misérables ", count: 4)
        // An update that moved pinned cell 4 and left its data: its pin goes there.
        var movedFour = CellRecordData(id: 4, data: CellData(label: "four", attrs: attrs(#"{"a":[1,2,{"b":null}]}"#)), radius: nil)
        movedFour.place = .init(x: 30, y: -40.5)
        let records: [[UInt8]] = [
            checkpoint(at: 0, seq: 2, parameters: charged,
                       cells: [CellRecord(id: 1, x: -3.25, y: 4.5, pinned: false), CellRecord(id: 2, x: 10, y: 0, pinned: true, radius: 12),
                               CellRecord(id: 3, x: 0.123456, y: -9.87654, pinned: false)],
                       links: [Link(source: 1, target: 2, distance: 40), Link(source: 2, target: 3, strength: 0.5)],
                       data: [1: one, 2: CellData(group: "g"), 3: CellData(key: .number(7))],
                       linkAttrs: [(1, 2, attrs(#"{"weight":1.5}"#))]),
            event(1, .added, .cells([1]), at: -10),  // in the checkpoint already: not played
            keyframe(at: 200, [(1, -3, 4.75), (2, 10, 0), (3, 0.123456, -9.87654)]),
            event(3, .added, .added([4, 5], data: [CellRecordData(id: 4, data: CellData(label: "four", attrs: attrs(#"{"a":[1,2,{"b":null}]}"#)), radius: nil)]), at: 500),
            keyframe(at: 600, [(1, -3, 4.75), (2, 10, 0), (3, 0.5, -9.5), (4, 20.25, -7.125), (5, -15, 3)]),
            event(4, .linked, .linked([LinkRecord(Link(source: 4, target: 5), attrs: nil),
                                       LinkRecord(Link(source: 1, target: 4, distance: 25, strength: 0.25), attrs: attrs(#"{"kind":"friend"}"#))]), at: 700),
            keyframe(at: 900, [(1, -2, 5), (2, 10, 0), (3, 0.5, -9.5), (4, 21, -7), (5, -15, 3)], withIDs: false),
            event(5, .params, .params(stronger, changed: ["charge"]), at: 1000),
            event(6, .pinned, .pinned(id: 4, x: 1.5, y: -2.25), at: 1100),
            event(7, .updated, .updated([CellRecordData(id: 1, data: CellData(label: "uno", key: .string("n1")), radius: nil),
                                         CellRecordData(id: 5, data: CellData(group: "h"), radius: 8), movedFour]), at: 1200),
            event(8, .unpinned, .unpinned(id: 2), at: 1300),
            event(9, .unlinked, .unlinked([LinkEnds(source: 3, target: 2)]), at: 1400),
            event(10, .settled, .none, at: 1500),
            event(11, .removed, .cells([3]), at: 1600),
            event(12, .cleared, .cells([1, 2, 4, 5]), at: 2000),
            event(13, .added, .added(Array(6...12), data: (6...12).map {
                CellRecordData(id: $0, data: CellData(label: "Ça \"va\"\n\($0) \(long)"), radius: $0 == 9 ? 4.5 : nil)
            }), at: 2100),
            keyframe(at: 2300, (6...12).map { ($0, Double($0) * 1.5, -Double($0)) }),
            event(14, .params, .params(paused, changed: ["paused"]), at: 2400),  // the room is paused already
            event(15, .params, .params(stronger, changed: ["paused"]), at: 2500),
            // a restore: cells 1 (back, with its first data), 6 and 7 (pinned), a link, charge 15
            checkpoint(at: 3000, seq: 16, parameters: charged,
                       cells: [CellRecord(id: 1, x: -3.25, y: 4.5, pinned: false), CellRecord(id: 6, x: 9, y: -6, pinned: false),
                               CellRecord(id: 7, x: 10.5, y: -7, pinned: true)],
                       links: [Link(source: 1, target: 6)], data: [1: one]),
            event(16, .restored, .restored(moment: start + 100, ids: [1, 6, 7], pinned: [7], records: [], links: []), at: 3000),
            event(17, .added, .cells([13]), at: 3200),
            keyframe(at: 3300, [(1, -3.25, 4.5), (6, 9, -6), (7, 10.5, -7), (13, 0.0001, -0.00004)]),
            event(18, .params, .params(later, changed: ["charge"]), at: 3400),
            // as a server before failovers carried the parameters recorded it
            event(19, .failover, .failover(node: "n2", previous: "n1", pinned: [], parameters: nil), at: 3500),
            // as a server now records it: the state it went on from had charge 15, not 25
            event(20, .failover, .failover(node: "n3", previous: "n2", pinned: [], parameters: charged), at: 3600),
        ]
        return HistoryFileFormat.header + records.flatMap { $0 }
    }

    /// The plan's room: its parameters as a hello writes them (the table's order) and limits
    /// small enough that adds split by count and by bytes.
    static func plan() throws -> [UInt8] {
        var limits = Limits()
        limits.maxAddPerMessage = 3
        limits.maxMessageBytes = 400
        let plan = PlaybackPlan(try Recording(recording()), roomParameters: Parameters(), limits: limits)
        var writer = JSONWriter(reservingCapacity: 8192)
        writer.raw("{\"roomParameters\":")
        ServerMessages.writeParameters(Parameters(), into: &writer)
        writer.raw(",\n\"limits\":{\"maxAddPerMessage\":")
        writer.integer(limits.maxAddPerMessage)
        writer.member("maxMessageBytes", limits.maxMessageBytes)
        writer.raw("},\n\"duration\":")
        writer.integer(plan.duration)
        writer.raw(",\n\"messages\":[\n")
        for (index, message) in plan.messages.enumerated() {
            if index > 0 { writer.raw(",\n") }
            writer.raw("{\"answer\":")
            writer.string(message.answer.rawValue)
            writer.member("offset", message.offset)
            writer.raw(",\"adds\":")
            writer.integers(message.adds)
            writer.raw(",\"wire\":")
            writer.string(String(decoding: ClientRequest(.layout(message.command)).encoded, as: UTF8.self))
            writer.raw("}")
        }
        writer.raw("\n]}\n")
        return writer.bytes
    }

    func testTheFixturesAreWhatTheServerAndThePlanWrite() throws {
        let write = ProcessInfo.processInfo.environment["FORCELAYOUT_WRITE_FIXTURES"] == "1"
        for (name, bytes) in [("playback-sample.flhistory", Self.recording()), ("playback-sample.plan.json", try Self.plan())] {
            let file = Self.folder.appendingPathComponent(name)
            if write {
                try Data(bytes).write(to: file)
                continue
            }
            XCTAssertEqual((try? Data(contentsOf: file)).map(Array.init), bytes,
                           "Tests/fixtures/\(name) is not what the server and PlaybackPlan write now: FORCELAYOUT_WRITE_FIXTURES=1 swift test --filter PlaybackFixtureTests, then make Public/playbackplan.js follow")
        }
    }

    /// The sample holds what it is meant to exercise: every record read back, batches split by
    /// count and by bytes, a restore reached by its differences, the room unpaused at the end.
    func testTheSampleExercisesThePlan() throws {
        let recording = try Recording(Self.recording())
        XCTAssertEqual(recording.cutBytes, 0)
        XCTAssertEqual(recording.counts.events, 19)
        XCTAssertEqual(recording.counts.keyframes, 5)
        let plan = String(decoding: try Self.plan(), as: UTF8.self)
        XCTAssertTrue(plan.contains(#"\"type\":\"clear\""#))
        XCTAssertTrue(plan.contains(#"\"type\":\"remove\",\"ids\":[8,9,10]"#), "three cells a message at most")
        XCTAssertTrue(plan.contains(#""adds":[6,7]"#), "the long labels split the add of seven cells by bytes")
        XCTAssertTrue(plan.contains(#"\"type\":\"unpin\",\"id\":7"#), "the failover released cell 7")
        XCTAssertTrue(plan.contains(#"\"type\":\"pin\",\"id\":4,\"x\":30,\"y\":-40.5"#), "the update moved cell 4's pin")
        XCTAssertFalse(plan.contains(#"\"id\":4,\"label\""#), "its data, unchanged, is not sent again")
        XCTAssertTrue(plan.contains(#"{"answer":"params","offset":3600,"adds":[],"wire":"{\"type\":\"params\",\"charge\":15}"}"#),
                      "the second failover went on with charge 15, not the 25 set before it")
        XCTAssertTrue(plan.hasSuffix(#"{"answer":"params","offset":3600,"adds":[],"wire":"{\"type\":\"params\",\"paused\":false}"}"# + "\n]}\n"))
    }
}
