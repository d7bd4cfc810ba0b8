import EventBus
import Foundation
import Synchronization
import XCTest
@testable import LayoutCluster
@testable import LayoutCore
@testable import LayoutRooms

/// Everything a server reads from Redis, written by hand by whoever can write there: each
/// decoder refuses what no server writes (numbers past `WireBounds`, names of the wrong form,
/// wrong types, huge strings) instead of trapping on it later, or summing, stepping or numbering
/// on from it.
final class HostileRedisTests: XCTestCase {
    private func event(seq: UInt64 = 1, by: String? = "c1@b", tick: Int = 3, at: Int = 5) -> [UInt8] {
        var writer = WireWriter()
        writer.u64(seq)
        writer.text(EventKind.woke.rawValue)
        writer.optionalData(by.map { Array($0.utf8) })
        writer.int(tick)
        writer.int(at)
        writer.data(Array(#","tick":3}"#.utf8))
        return writer.bytes
    }

    private func decodeEvent(_ bytes: [UInt8]) throws -> ReplicatedEvent {
        var reader = WireReader(bytes)
        return try ReplicatedEvent(from: &reader)
    }

    func testEventsOutsideTheBoundsAreRefused() throws {
        XCTAssertEqual(try decodeEvent(event()).seq, 1)
        XCTAssertEqual(try decodeEvent(event(seq: EventBusBounds.maxSeq)).seq, EventBusBounds.maxSeq)
        for (bytes, why) in [(event(seq: UInt64.max), "2^64 - 1"), (event(seq: EventBusBounds.maxSeq + 1), "above 2^53"),
                             (event(seq: 0), "0"), (event(tick: Int.max), "tick"), (event(tick: -1), "negative tick"),
                             (event(at: Int.min), "time"), (event(by: String(repeating: "x", count: 100_000)), "huge client"),
                             (event(by: "c1\"@b"), "a quote in a client id")] {
            XCTAssertThrowsError(try decodeEvent(bytes), why)
        }
    }

    private func frame(serial: Int = 1, version: Int = 1, nextDueIn: UInt64 = 0, membershipVersion: Int? = nil) -> ReplicatedFrame {
        ReplicatedFrame(serial: serial, version: version, nextDueIn: nextDueIn, text: Array("{}".utf8), textHead: 1,
                        binary: [UInt8](repeating: 0, count: BinaryFrameEncoder.headSize),
                        membership: membershipVersion.map { .init(version: $0, text: [], binary: []) })
    }

    private func status(_ edit: (inout [String: Any]) -> Void = { _ in }) throws -> [UInt8] {
        var status = ReplicatedStatus(layout: LayoutStatus(), clients: 2)
        status.owner = "a"
        status.lastSeq = 4
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(status.encoded)) as? [String: Any])
        edit(&object)
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    private func layout(_ key: String, _ value: Any) -> (inout [String: Any]) -> Void {
        { object in
            var layout = object["layout"] as! [String: Any]
            layout[key] = value
            object["layout"] = layout
        }
    }

    func testFramesAndStatusesOutsideTheBoundsAreRefused() throws {
        let plain = RoomBroadcast.frame(frame(), try ReplicatedStatus(decoding: try status()))
        XCTAssertEqual(try RoomBroadcast(decoding: plain.encoded), plain)
        let good = try ReplicatedStatus(decoding: try status())
        for (hostile, why) in [(frame(serial: Int.max), "serial"), (frame(serial: -1), "negative serial"),
                               (frame(version: Int.max), "version: a takeover numbers on from it"),
                               (frame(nextDueIn: UInt64.max), "next due: now + it overflows"),
                               (frame(membershipVersion: Int.max), "membership version")] {
            XCTAssertThrowsError(try RoomBroadcast(decoding: RoomBroadcast.frame(hostile, good).encoded), why)
        }
        XCTAssertThrowsError(try RoomBroadcast(decoding: RoomBroadcast.data(through: UInt64.max, message: nil, everyone: true).encoded))
        let edits: [(String, (inout [String: Any]) -> Void)] = [
            ("clients Int.max", { $0["clients"] = Int.max }), ("negative clients", { $0["clients"] = -1 }),
            ("lastSeq 2^64 - 1", { $0["lastSeq"] = UInt64.max }), ("lastSeq past 2^53", { $0["lastSeq"] = EventBusBounds.maxSeq + 1 }),
            ("an owner that is no server's name", { $0["owner"] = String(repeating: "A", count: 10_000) }),
            ("clients of the wrong type", { $0["clients"] = "many" }), ("no layout", { $0["layout"] = nil }),
            ("tick Int.max", layout("tick", Int.max)), ("version Int.max", layout("version", Int.max)),
            ("negative cells", layout("cells", -5)), ("cells past the bound", layout("cells", 1 << 40)),
            ("negative tick time", layout("tickMs", -1.0)), ("frame bytes", layout("frameBytes", Int.max)),
            ("pins of the wrong type", layout("pinned", ["x"])),
            ("a parameter out of its range", { object in
                var layout = object["layout"] as! [String: Any]
                var parameters = layout["parameters"] as! [String: Any]
                parameters["tickRate"] = 1e300
                layout["parameters"] = parameters
                object["layout"] = layout
            }),
        ]
        for (why, edit) in edits {
            XCTAssertThrowsError(try ReplicatedStatus(decoding: try status(edit)), why)
        }
        XCTAssertThrowsError(try ReplicatedStatus(decoding: Array(String(repeating: "[", count: 100_000).utf8)), "deep nesting")
    }

    func testRequestsAndNodeMessagesOutsideTheBoundsAreRefused() throws {
        func raw(_ tag: UInt8, _ texts: [String], message: [UInt8]? = nil) -> [UInt8] {
            var writer = WireWriter()
            writer.u8(tag)
            for text in texts { writer.text(text) }
            if let message { writer.data(message) }
            return writer.bytes
        }
        XCTAssertNoThrow(try RelayRequest(decoding: raw(1, ["b", "c1@b", "viewer"], message: [1])))
        for (bytes, why) in [(raw(1, ["B A D", "c1@b", "editor"], message: [1]), "node"), (raw(2, ["b", ""]), "empty client"),
                             (raw(1, ["b", "c1@b", "king"], message: [1]), "unknown role"),
                             (raw(5, ["b", "c1@b"], message: [9]), "unknown access change"),
                             (raw(2, ["b", String(repeating: "c", count: 65)]), "long client"),
                             (raw(4, [String(repeating: "n", count: 33)]), "long node"),
                             (raw(1, ["b", "c1@b", "owner"], message: [UInt8](repeating: 0, count: WireBounds.messageBytes + 1)), "huge message")] {
            XCTAssertThrowsError(try RelayRequest(decoding: bytes), why)
        }
        XCTAssertThrowsError(try NodeMessage(decoding: raw(1, ["c1@b"], message: [UInt8](repeating: 0, count: WireBounds.replyBytes + 1))))
        XCTAssertThrowsError(try NodeMessage(decoding: raw(1, ["c1\n@b"], message: [])))
        XCTAssertThrowsError(try NodeMessage(decoding: raw(2, ["not a room!"])))
    }

    private func summary(_ edit: (inout [String: Any]) -> Void = { _ in }) throws -> [UInt8] {
        let summary = NodeSummary(node: "a", clients: 3, rooms: [.init(name: "r", clients: 3, cells: 10, settled: false, tick: 9)],
                                  relayed: 1, uptimeSeconds: 12)
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(summary.encoded)) as? [String: Any])
        edit(&object)
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    private func room(_ key: String, _ value: Any) -> (inout [String: Any]) -> Void {
        { object in
            var rooms = object["rooms"] as! [[String: Any]]
            rooms[0][key] = value
            object["rooms"] = rooms
        }
    }

    func testSummariesOutsideTheBoundsAreRefused() throws {
        XCTAssertEqual(try NodeSummary(decoding: try summary()).clients, 3)
        let edits: [(String, (inout [String: Any]) -> Void)] = [
            ("clients Int.max", { $0["clients"] = Int.max }), ("negative clients", { $0["clients"] = -1 }),
            ("a bad name", { $0["node"] = "A\nB" }), ("uptime", { $0["uptimeSeconds"] = Int.max }),
            ("relayed", { $0["relayed"] = Int.max }), ("clients of the wrong type", { $0["clients"] = [1] }),
            ("a room's clients", room("clients", Int.max)), ("a room's cells", room("cells", -1)),
            ("a room's tick", room("tick", Int.max)), ("a room's name", room("name", "../x")),
            ("a room twice", { object in
                let rooms = object["rooms"] as! [[String: Any]]
                object["rooms"] = rooms + rooms
            }),
        ]
        for (why, edit) in edits {
            XCTAssertThrowsError(try NodeSummary(decoding: try summary(edit)), why)
        }
        XCTAssertThrowsError(try NodeSummary(decoding: [UInt8](repeating: 32, count: WireBounds.summaryBytes + 1)), "huge")
    }

    /// A summary counts only if a server could have written it: one with no expiry (or a
    /// longer one than a lease) is ignored, however its name is scored in `fl:nodes`.
    func testTheViewCountsOnlySummariesThatExpireAsAServersDo() throws {
        let good = try summary()
        let (view, refused) = ClusterView.reported([
            ("a", good, 2500), ("b", try summary { $0["node"] = "b" }, -1), ("c", try summary { $0["node"] = "c" }, 86_400_000),
            ("d", good, 2500), ("e", nil, -2), ("f", try summary { $0["node"] = "f"; $0["clients"] = Int.max }, 3000),
        ])
        XCTAssertEqual(view.nodes.map(\.node), ["a"])
        XCTAssertEqual(refused.count, 4, "\(refused)")  // b and c: no expiry in the lease; d: names a; f: out of bounds
        XCTAssertEqual(view.clients, 3)
    }

    /// A server of a cluster cannot reach the figures its peers refuse.
    func testAClustersLimitsStayWithinTheBounds() {
        XCTAssertNil(ClusterConfig.limitsProblem(Limits()))
        var limits = Limits()
        limits.maxRooms = WireBounds.rooms.upperBound + 1
        XCTAssertTrue(ClusterConfig.limitsProblem(limits)?.contains("--max-rooms") == true)
        limits = Limits()
        limits.maxCells = WireBounds.cells.upperBound + 1
        XCTAssertTrue(ClusterConfig.limitsProblem(limits)?.contains("--max-cells") == true)
    }

    func testSumsOfWhatServersReportSaturate() {
        XCTAssertEqual(WireBounds.sum([Int.max, 1, 5]), Int.max)
        XCTAssertEqual(WireBounds.sum([1, 2, 3]), 6)
    }

    func testAClaimsStateIsCheckedAsAFileIsBeforeTheServiceThreadGetsIt() throws {
        let room = try XCTUnwrap(RoomName("claimed"))
        let none = Claim([.null, .array([])][...], previous: nil)
        guard case .success(nil) = none.decoded(room) else { return XCTFail("a new room has no state") }
        let garbage = Claim([.string(Array(#"{"format":"forcelayout-state","version":4,"layout":7}"#.utf8)), .array([])][...], previous: "a")
        guard case .failure(let failure) = garbage.decoded(room) else { return XCTFail("garbage decoded") }
        XCTAssertTrue(failure.description.contains("Redis"), failure.description)
    }

    func testAClaimsRosterKeepsOnlyClientIdsOnServersNames() {
        let claim = Claim([.null, .array([.string(Array("c1@a".utf8)), .string(Array("a".utf8)),
                                          .string(Array("x\"y".utf8)), .string(Array("a".utf8)),
                                          .string(Array("c2@b".utf8)), .string(Array("NOT A NODE".utf8)),
                                          .string(Array("c3@b".utf8)), .string(Array("b v1".utf8)),
                                          .string(Array("c4@b".utf8)), .string(Array("b v2".utf8)),
                                          .string(Array("c5@b".utf8)), .string(Array("b v1 v1".utf8))])][...], previous: nil)
        XCTAssertEqual(claim.roster, ["c1@a": RosterEntry(node: "a", readsText: false),
                                      "c3@b": RosterEntry(node: "b", readsText: true)])
        for entry in [RosterEntry(node: "a", readsText: false), RosterEntry(node: "node-2", readsText: true)] {
            XCTAssertEqual(RosterEntry(entry.encoded), entry)
        }
    }

    /// Valid broadcasts with 8-byte windows overwritten by extreme numbers, and bytes flipped,
    /// fed to a relay's mirror: nothing traps, and whatever is applied keeps the bus's numbering
    /// and the room's figures within bounds.
    func testMutatedBroadcastsNeverTrapARelay() throws {
        let room = Room(pendingName: try XCTUnwrap(RoomName("fuzzed")), replay: ReplayBounds(events: 16), changed: ChangedRooms())
        let reads = Mutex<[RedisCommands.Completion]>([])
        let mirror = RoomMirror(room: room, owner: "a", link: .init(
            read: { _, completion in reads.withLock { $0.append(completion) } }, askForData: {}, live: {}, gap: {},
            refused: { _ in }))
        room.relay(mirror)
        mirror.subscribed()
        reads.withLock { $0.first }?(.success([.status("OK"), .status("QUEUED"), .status("QUEUED"), .array([.array([]), .array([])])]))
        var status = ReplicatedStatus(layout: LayoutStatus(), clients: 1)
        status.owner = "a"
        status.lastSeq = 3
        var head = [UInt8](repeating: 0, count: BinaryFrameEncoder.headSize)
        head[0] = 1
        let frame = ReplicatedFrame(serial: 2, version: 1, nextDueIn: 50_000_000, text: Array(#"{"type":"frame","xy":[]}"#.utf8),
                                    textHead: 15, binary: head, membership: .init(version: 1, text: [], binary: []))
        let event = ReplicatedEvent(Envelope(seq: 4, event: LayoutEvent(kind: .woke, by: "c1@a", tick: 1, detail: .none, at: 5)))
        let seeds = [RoomBroadcast.frame(frame, status).encoded, RoomBroadcast.events([event, event]).encoded,
                     RoomBroadcast.status(status).encoded, RoomBroadcast.data(through: 3, message: [1], everyone: true).encoded]
        let extremes: [UInt64] = [0, 1, UInt64.max, UInt64.max - 1, UInt64(Int64.max), 1 << 63, EventBusBounds.maxSeq,
                                  EventBusBounds.maxSeq + 1, UInt64(UInt32.max)]
        var random = SplitMix(seed: 22)
        for round in 0..<4000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(random.next() % 3)) {
                if random.next() % 2 == 0, bytes.count >= 9 {
                    let at = 1 + Int(random.next() % UInt64(bytes.count - 8))
                    withUnsafeBytes(of: extremes[Int(random.next() % UInt64(extremes.count))].littleEndian) {
                        bytes.replaceSubrange(at..<(at + 8), with: $0)
                    }
                } else {
                    bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                }
            }
            mirror.received(bytes)
            XCTAssertLessThanOrEqual(room.bus.nextSeq, EventBusBounds.maxSeq + 1)
            XCTAssertTrue(WireBounds.counter.contains(room.status.current.tick))
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failure repeats.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
