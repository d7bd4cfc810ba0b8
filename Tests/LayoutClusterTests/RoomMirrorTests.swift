import EventBus
import ForceLayout
import Synchronization
import XCTest
@testable import LayoutCluster
@testable import LayoutCore
@testable import LayoutRooms

/// A relay's mirror of a room, fed by hand (no Redis): catching up, repeats, gaps, data.
final class RoomMirrorTests: XCTestCase {
    private final class Calls: Sendable {
        let reads = Mutex<[RedisCommands.Completion]>([])
        let dataAsks = Atomic<Int>(0)
        let lives = Atomic<Int>(0)
        let gaps = Atomic<Int>(0)
        let refusals = Mutex<[String]>([])
    }

    private func mirror() throws -> (RoomMirror, Room, Calls) {
        let room = Room(pendingName: try XCTUnwrap(RoomName("m")), replay: ReplayBounds(events: 16), changed: ChangedRooms())
        let calls = Calls()
        let mirror = RoomMirror(room: room, owner: "a", link: .init(
            read: { _, completion in calls.reads.withLock { $0.append(completion) } },
            askForData: { calls.dataAsks.add(1, ordering: .relaxed) },
            live: { calls.lives.add(1, ordering: .relaxed) },
            gap: { calls.gaps.add(1, ordering: .relaxed) },
            refused: { why in calls.refusals.withLock { $0.append(why) } }))
        room.relay(mirror)
        return (mirror, room, calls)
    }

    private func frame(serial: Int, version: Int, membership: Bool) -> ReplicatedFrame {
        var head = [UInt8](repeating: 0, count: BinaryFrameEncoder.headSize)
        head[0] = 1
        return ReplicatedFrame(serial: serial, version: version, nextDueIn: 0, text: Array("{\"type\":\"frame\",\"xy\":[]}".utf8),
                               textHead: 15, binary: head,
                               membership: membership ? .init(version: version, text: Array(",\"ids\":[]".utf8), binary: []) : nil)
    }

    private func status(tick: Int, lastSeq: UInt64, owner: String = "a") -> ReplicatedStatus {
        var layout = LayoutStatus()
        layout.tick = tick
        var status = ReplicatedStatus(layout: layout, clients: 3)
        status.owner = owner
        status.lastSeq = lastSeq
        return status
    }

    private func event(_ seq: UInt64) -> ReplicatedEvent {
        ReplicatedEvent(Envelope(seq: seq, event: LayoutEvent(kind: .woke, by: nil, tick: 1, detail: .none, at: 5)))
    }

    private func hash(_ fields: [(String, [UInt8])]) -> RedisReply {
        .array(fields.flatMap { [RedisReply.string(Array($0.0.utf8)), .string($0.1)] })
    }

    func testCatchingUpTakesWhatRedisHeldThenWhatArrivedMeanwhileOnce() throws {
        let (mirror, room, calls) = try mirror()
        mirror.subscribed()
        // Arrives while the read is under way: an event already in the read, then a newer one.
        mirror.received(RoomBroadcast.events([event(2)]).encoded)
        mirror.received(RoomBroadcast.events([event(3)]).encoded)
        mirror.received(RoomBroadcast.frame(frame(serial: 8, version: 1, membership: false), status(tick: 8, lastSeq: 3)).encoded)
        XCTAssertNil(room.frames.current)
        let stored = RoomBroadcast.frame(frame(serial: 7, version: 1, membership: true), status(tick: 7, lastSeq: 2)).encoded
        let completion = try XCTUnwrap(calls.reads.withLock { $0.first })
        completion(.success([.status("OK"), .status("QUEUED"), .status("QUEUED"), .array([
            hash([("frame", stored), ("status", RoomBroadcast.status(status(tick: 7, lastSeq: 2)).encoded)]),
            .array([1, 2].map { seq in
                var writer = WireWriter()
                event(UInt64(seq)).write(into: &writer)
                return .string(writer.bytes)
            }),
        ])]))
        XCTAssertEqual(room.bus.replay(last: 10).map(\.seq), [1, 2, 3])
        XCTAssertEqual(room.frames.current?.version, 1)
        XCTAssertEqual(room.status.current.tick, 8)
        XCTAssertEqual(mirror.lastSerial, 8)
        XCTAssertTrue(mirror.isLive)
        XCTAssertEqual(calls.lives.load(ordering: .relaxed), 1)
        XCTAssertEqual(mirror.clients, 3)
        // An older frame is dropped.
        mirror.received(RoomBroadcast.frame(frame(serial: 6, version: 1, membership: false), status(tick: 9, lastSeq: 3)).encoded)
        XCTAssertEqual(mirror.lastSerial, 8)
        XCTAssertEqual(calls.gaps.load(ordering: .relaxed), 0)
    }

    func testMissedEventsCloseTheClientsHereAndNumberingGoesOn() throws {
        let (mirror, room, calls) = try mirror()
        mirror.subscribed()
        calls.reads.withLock { $0.first }?(.success([.status("OK"), .status("QUEUED"), .status("QUEUED"), .array([.array([]), .array([])])]))
        mirror.received(RoomBroadcast.events([event(1)]).encoded)
        // Nobody here yet: a jump is just numbered on.
        mirror.received(RoomBroadcast.status(status(tick: 1, lastSeq: 4)).encoded)
        XCTAssertEqual(calls.gaps.load(ordering: .relaxed), 0)
        XCTAssertEqual(room.bus.nextSeq, 5)
        mirror.attach(Mailbox(maxEventBacklog: 16))
        mirror.received(RoomBroadcast.events([event(5)]).encoded)
        XCTAssertEqual(calls.gaps.load(ordering: .relaxed), 0)
        mirror.received(RoomBroadcast.events([event(7)]).encoded)
        XCTAssertEqual(calls.gaps.load(ordering: .relaxed), 1)
        mirror.received(RoomBroadcast.status(status(tick: 2, lastSeq: 9)).encoded)
        XCTAssertEqual(calls.gaps.load(ordering: .relaxed), 2)
    }

    /// What no owner sends (a sequence number of 2^64 − 1, a status whose figures overflow, a
    /// frame due in centuries) is dropped and said once; the room's real events go on.
    func testHostileBroadcastsAreDroppedSaidOnceAndTheRoomGoesOn() throws {
        let (mirror, room, calls) = try mirror()
        mirror.subscribed()
        calls.reads.withLock { $0.first }?(.success([.status("OK"), .status("QUEUED"), .status("QUEUED"), .array([.array([]), .array([])])]))
        mirror.attach(Mailbox(maxEventBacklog: 16))
        mirror.received(RoomBroadcast.events([event(1)]).encoded)
        var hostileStatus = status(tick: 1, lastSeq: 1)
        hostileStatus.layout.tick = Int.max
        var farFrame = frame(serial: 1, version: 1, membership: true)
        farFrame = ReplicatedFrame(serial: 1, version: 1, nextDueIn: UInt64.max, text: farFrame.text, textHead: farFrame.textHead,
                                   binary: farFrame.binary, membership: farFrame.membership)
        for payload in [RoomBroadcast.events([event(UInt64.max)]).encoded, RoomBroadcast.events([event(UInt64.max - 1)]).encoded,
                        RoomBroadcast.status(status(tick: 1, lastSeq: UInt64.max)).encoded,
                        RoomBroadcast.status(hostileStatus).encoded,
                        RoomBroadcast.frame(farFrame, status(tick: 1, lastSeq: 1)).encoded,
                        RoomBroadcast.data(through: UInt64.max, message: nil, everyone: true).encoded] {
            mirror.received(payload)
        }
        XCTAssertEqual(calls.refusals.withLock { $0.count }, 1, "said once")
        XCTAssertEqual(calls.gaps.load(ordering: .relaxed), 0)
        XCTAssertEqual(room.bus.nextSeq, 2)
        XCTAssertEqual(room.status.current.tick, 0)
        mirror.received(RoomBroadcast.events([event(2)]).encoded)
        XCTAssertEqual(room.bus.nextSeq, 3, "the real events go on")
        XCTAssertEqual(calls.gaps.load(ordering: .relaxed), 0)
    }

    func testTheDataAnswerGoesToJoinersWhoseOpeningItCovers() throws {
        let (mirror, _, calls) = try mirror()
        mirror.subscribed()
        let early = Mailbox(maxEventBacklog: 16), late = Mailbox(maxEventBacklog: 16), other = Mailbox(maxEventBacklog: 16)
        mirror.attach(other)
        mirror.waitForData(early, through: 3)
        mirror.waitForData(late, through: 6)
        XCTAssertEqual(calls.dataAsks.load(ordering: .relaxed), 1, "one question at a time")
        calls.reads.withLock { $0.first }?(.success([.status("OK"), .status("QUEUED"), .status("QUEUED"), .array([.array([]), .array([])])]))
        mirror.received(RoomBroadcast.data(through: 4, message: Array("{\"type\":\"data\"}".utf8), everyone: false).encoded)
        XCTAssertEqual(early.pop()?.text, "{\"type\":\"data\"}")
        XCTAssertNil(late.pop(), "its opening saw events after the answer's point")
        XCTAssertEqual(calls.dataAsks.load(ordering: .relaxed), 2, "asked again for the joiner left")
        mirror.received(RoomBroadcast.data(through: 9, message: nil, everyone: false).encoded)
        XCTAssertNil(late.pop(), "no data: nothing to send")
        // After a failover, everyone gets it.
        mirror.received(RoomBroadcast.data(through: 12, message: Array("{}".utf8), everyone: true).encoded)
        XCTAssertEqual(other.pop()?.text, "{}")
        XCTAssertEqual(calls.dataAsks.load(ordering: .relaxed), 2)
    }

    /// Waits (up to 3 s) for the mirror's `count`th read.
    private func read(_ count: Int, of calls: Calls) -> RedisCommands.Completion? {
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            if let completion = calls.reads.withLock({ $0.count >= count ? $0[count - 1] : nil }) { return completion }
            usleep(10_000)
        }
        return nil
    }

    func testACatchUpThatFailsIsTriedAgainAndEachOneAnnouncesTheRoomLive() throws {
        let (mirror, room, calls) = try mirror()
        let empty: Result<[RedisReply], RedisConnection.Failure> =
            .success([.status("OK"), .status("QUEUED"), .status("QUEUED"), .array([.array([]), .array([])])])
        mirror.subscribed()
        // The command connection is not back yet (Redis restarted): the read fails, and is tried again.
        try XCTUnwrap(read(1, of: calls))(.failure(.init(description: "Redis is unreachable")))
        let again = try XCTUnwrap(read(2, of: calls), "the failed catch-up was not tried again")
        mirror.received(RoomBroadcast.frame(frame(serial: 3, version: 1, membership: true), status(tick: 3, lastSeq: 0)).encoded)
        XCTAssertFalse(mirror.isLive, "not live before the read")
        again(empty)
        XCTAssertTrue(mirror.isLive)
        XCTAssertEqual(calls.lives.load(ordering: .relaxed), 1)
        // Lost and subscribed again: the joiners that come meanwhile wait, and are told when it is live again.
        mirror.lost()
        mirror.subscribed()
        XCTAssertFalse(mirror.isLive)
        try XCTUnwrap(read(3, of: calls))(empty)
        XCTAssertTrue(mirror.isLive)
        XCTAssertEqual(calls.lives.load(ordering: .relaxed), 2)
        // A room that left this server is not read again for a failed catch-up.
        mirror.lost()
        mirror.subscribed()
        room.relay(nil)
        try XCTUnwrap(read(4, of: calls))(.failure(.init(description: "Redis is unreachable")))
        usleep(600_000)
        XCTAssertEqual(calls.reads.withLock { $0.count }, 4)
        XCTAssertEqual(calls.gaps.load(ordering: .relaxed), 0)
    }
}

/// A relay's pointers: the set Redis keeps comes with the catch-up, the owner's messages after
/// it, a whole set replaces the relay's; the room's connections here hear each change.
final class RoomMirrorPointerTests: XCTestCase {
    func testARelayTakesTheStoredSetThenTheOwnersChanges() throws {
        let room = Room(pendingName: try XCTUnwrap(RoomName("p")), replay: ReplayBounds(events: 16), changed: ChangedRooms())
        let reads = Mutex<[RedisCommands.Completion]>([])
        let mirror = RoomMirror(room: room, owner: "a", link: .init(
            read: { _, completion in reads.withLock { $0.append(completion) } }, askForData: {}, live: {}, gap: {}, refused: { _ in }))
        room.relay(mirror)
        mirror.subscribed()
        // Arrives while the read is under way: applied after what Redis held.
        mirror.received(RoomBroadcast.pointers([Pointer(client: "c2@a", id: 9)], whole: false).encoded)
        let stored = RoomBroadcast.pointers([Pointer(client: "c1@a", name: "A", id: 4), Pointer(client: "c2@a", id: 8)], whole: true)
        reads.withLock { $0.first }?(.success([.status("OK"), .status("QUEUED"), .status("QUEUED"), .array([
            .array([.string(Array("pointers".utf8)), .string(stored.encoded)]), .array([]),
        ])]))
        XCTAssertEqual(room.pointers.current, [Pointer(client: "c1@a", name: "A", id: 4), Pointer(client: "c2@a", id: 9)])
        let mailbox = Mailbox(maxEventBacklog: 16)
        XCTAssertEqual(room.pointers.join(mailbox).count, 2)
        mirror.received(RoomBroadcast.pointers([Pointer(client: "c1@a", id: nil)], whole: false).encoded)
        XCTAssertEqual(mailbox.pop()?.text, #"{"type":"pointer","client":"c1@a","id":null}"#)
        mirror.received(RoomBroadcast.pointers([Pointer(client: "c3@b", id: 1)], whole: true).encoded)
        XCTAssertEqual(mailbox.pop()?.text, #"{"type":"pointer","client":"c2@a","id":null}"#)
        XCTAssertEqual(mailbox.pop()?.text, #"{"type":"pointer","client":"c3@b","id":1}"#)
        XCTAssertNil(mailbox.pop())
        room.pointers.leave(mailbox)
        mirror.received(RoomBroadcast.pointers([Pointer(client: "c3@b", id: 2)], whole: false).encoded)
        XCTAssertNil(mailbox.pop())
        XCTAssertEqual(room.pointers.current, [Pointer(client: "c3@b", id: 2)])
    }
}
