import EventBus
import ForceLayout
import XCTest
@testable import LayoutCluster
@testable import LayoutCore

/// The cluster's messages between servers: each decodes to what was encoded, a relay rebuilds
/// the owner's frames byte for byte, and damaged bytes are refused rather than misread.
final class ClusterWireTests: XCTestCase {
    private func layout() throws -> Simulation {
        let cells = [CellRecord(id: 1, x: 10.5, y: -3, pinned: false), CellRecord(id: 2, x: 0, y: 0, pinned: false),
                     CellRecord(id: 5, x: 22.1, y: 7.4, pinned: false)]
        return try Simulation(snapshot: LayoutSnapshot(parameters: .defaults, nextID: 6, cells: cells))
    }

    func testARelayRebuildsAllFourFormsOfTheOwnersFrame() throws {
        let simulation = try layout()
        var text = FrameEncoder(), binary = BinaryFrameEncoder()
        let runs = [Ownership.Run(client: "c1@a", first: 1, last: 2)]
        let textFrame = text.encode(simulation, owners: runs, at: 1_763_700_000_123)
        let binaryFrame = binary.encode(simulation, owners: runs, at: 1_763_700_000_123)
        let replicated = ReplicatedFrame(
            serial: 7, version: simulation.version, nextDueIn: 50_000_000, text: textFrame.withoutIDs.bytes,
            textHead: FrameEncoder.head(tick: simulation.tick, version: simulation.version, at: 1_763_700_000_123).count,
            binary: binaryFrame.withoutIDs.bytes, membership: nil)
        let membership = ReplicatedFrame.Membership(version: simulation.version, text: text.membershipPart,
                                                    binary: binary.membershipSection)
        let published = try XCTUnwrap(replicated.published(serial: 1, membership: membership, now: 1000))
        XCTAssertEqual(published.withIDs?.bytes, textFrame.withIDs.bytes)
        XCTAssertEqual(published.withoutIDs?.bytes, textFrame.withoutIDs.bytes)
        XCTAssertEqual(published.binaryWithIDs.bytes, binaryFrame.withIDs.bytes)
        XCTAssertEqual(published.binaryWithoutIDs.bytes, binaryFrame.withoutIDs.bytes)
        XCTAssertTrue(published.binaryWithIDs.isBinary)
        XCTAssertEqual(published.nextDue, 1000 + 50_000_000)
        // The membership of another version is not used.
        let stale = ReplicatedFrame.Membership(version: simulation.version + 1, text: [], binary: [])
        XCTAssertNil(replicated.published(serial: 1, membership: stale, now: 0))
    }

    /// No v1 client anywhere: the owner sends the binary form alone, and the relay's frame has
    /// no text form for a v1 connection (it waits for one that has), all the binary forms.
    func testAFrameSentWithoutTextHasOnlyItsBinaryFormsOnTheRelay() throws {
        let simulation = try layout()
        var text = FrameEncoder(), binary = BinaryFrameEncoder()
        let binaryFrame = binary.encode(simulation, at: 0)
        _ = text.encode(simulation, at: 0)
        let replicated = ReplicatedFrame(serial: 3, version: simulation.version, nextDueIn: 0, text: [], textHead: 0,
                                         binary: binaryFrame.withoutIDs.bytes, membership: nil)
        XCTAssertFalse(replicated.hasText)
        let broadcast = RoomBroadcast.frame(replicated, ReplicatedStatus(layout: LayoutStatus(), clients: 1))
        XCTAssertEqual(try RoomBroadcast(decoding: broadcast.encoded), broadcast)
        let membership = ReplicatedFrame.Membership(version: simulation.version, text: text.membershipPart,
                                                    binary: binary.membershipSection)
        let published = try XCTUnwrap(replicated.published(serial: 1, membership: membership, now: 0))
        XCTAssertNil(published.message(binary: false, membership: true))
        XCTAssertNil(published.message(binary: false, membership: false))
        XCTAssertNil(published.text.bareCount)
        XCTAssertEqual(published.message(binary: true, membership: true)?.bytes, binaryFrame.withIDs.bytes)
        XCTAssertEqual(published.message(binary: true, membership: false)?.bytes, binaryFrame.withoutIDs.bytes)
    }

    func testBroadcastsRoundTrip() throws {
        var status = LayoutStatus()
        status.tick = 12
        status.pinned = [3, 4]
        status.parameters.charge = 21
        let replicatedStatus = ReplicatedStatus(layout: status, clients: 5)
        let frame = ReplicatedFrame(serial: 3, version: 2, nextDueIn: 0, text: Array("{\"type\":\"frame\"}".utf8),
                                    textHead: 5, binary: [UInt8](repeating: 9, count: 44),
                                    membership: .init(version: 2, text: [1, 2], binary: [3]))
        let event = ReplicatedEvent(Envelope(seq: 41, event: LayoutEvent(kind: .added, by: "c2@b", tick: 9,
                                                                         detail: .cells([1, 2]), at: 77)))
        for broadcast in [RoomBroadcast.frame(frame, replicatedStatus), .events([event, event]), .status(replicatedStatus),
                          .data(through: 40, message: Array("{}".utf8), everyone: false),
                          .data(through: 0, message: nil, everyone: true)] {
            XCTAssertEqual(try RoomBroadcast(decoding: broadcast.encoded), broadcast)
        }
    }

    func testAMirroredEventKeepsItsSequenceNumberAndBytes() {
        let original = Envelope(seq: 41, event: LayoutEvent(kind: .pinned, by: "c2@b", tick: 9,
                                                            detail: .pinned(id: 3, x: 1.5, y: -2), at: 77))
        let mirrored = ReplicatedEvent(original).envelope
        XCTAssertEqual(mirrored.seq, 41)
        XCTAssertEqual(ServerMessages.event(mirrored), ServerMessages.event(original))
        XCTAssertEqual(mirrored.event.kind, .pinned)
    }

    /// A choice parameter crosses the cluster as clients see it: a relay's `params` event is the
    /// owner's, byte for byte, and a status carries the model by name; one naming no option
    /// (a damaged or hostile Redis value) is refused rather than shown.
    func testAChoiceParameterCrossesTheClusterByName() throws {
        var parameters = Parameters.defaults
        parameters.model = "graph"
        parameters.edgeLength = 55
        let original = Envelope(seq: 12, event: LayoutEvent(kind: .params, by: "c3@a", tick: 4,
                                                            detail: .params(parameters, changed: ["model", "edgeLength"]), at: 99))
        var writer = WireWriter()
        ReplicatedEvent(original).write(into: &writer)
        var reader = WireReader(writer.bytes)
        let mirrored = try ReplicatedEvent(from: &reader).envelope
        XCTAssertEqual(ServerMessages.event(mirrored), ServerMessages.event(original))
        let event = try JSONParser.parse(ServerMessages.event(mirrored))
        XCTAssertEqual(event["params"]?["model"], .string("graph"))
        XCTAssertEqual(event["params"]?["edgeLength"], .number(55))
        XCTAssertEqual(event["changed"], .array([.string("model"), .string("edgeLength")]))

        var status = LayoutStatus()
        status.parameters = parameters
        let replicated = ReplicatedStatus(layout: status, clients: 2)
        XCTAssertEqual(try ReplicatedStatus(decoding: replicated.encoded), replicated)
        XCTAssertEqual(try RoomBroadcast(decoding: RoomBroadcast.status(replicated).encoded), .status(replicated))
        let text = String(decoding: replicated.encoded, as: UTF8.self)
        XCTAssertTrue(text.contains(#""model":"graph""#), text)
        for bad in [#""model":"spiral""#, #""model":7"#] {
            let damaged = Array(text.replacingOccurrences(of: #""model":"graph""#, with: bad).utf8)
            XCTAssertThrowsError(try ReplicatedStatus(decoding: damaged), bad)
        }
    }

    func testRelayRequestsAndNodeMessagesRoundTrip() throws {
        let owner = LinkSecret.random()
        let links = LinkDigests.rotating([.view], of: LinkDigests(ownerSecret: owner), ownerSecret: owner).digests
        for request in [RelayRequest.command(node: "b", client: "c1@b", role: .viewer, message: Array(#"{"type":"clear"}"#.utf8)),
                        .access(node: "b", client: "c1@b", change: .mode(.private)),
                        .access(node: "b", client: "c1@b", change: .links(links)),
                        .access(node: "b", client: "c1@b", change: .delete),
                        .joined(node: "b", client: "c1@b", readsText: false), .joined(node: "b", client: "c2@b", readsText: true), .left(node: "c", client: "c9@c"), .data(node: "b")] {
            XCTAssertEqual(try RelayRequest(decoding: request.encoded), request)
        }
        let room = try XCTUnwrap(RoomName("r-1"))
        for message in [NodeMessage.reply(client: "c1@b", message: Array("{}".utf8)), .adopt(room, access: nil),
                        .adopt(room, access: RoomAccess(mode: .view, links: links))] {
            XCTAssertEqual(try NodeMessage(decoding: message.encoded), message)
        }
        for access in [RoomAccess.unowned, RoomAccess(mode: .private, links: links), RoomAccess(mode: .view, links: links, deleted: true)] {
            XCTAssertEqual(try RoomBroadcast(decoding: RoomBroadcast.access(access).encoded), .access(access))
            XCTAssertEqual(try RoomAccess(decoding: access.encoded), access)
        }
        // No secret crosses Redis: the owner's, edit and view secrets are nowhere in the bytes.
        let bytes = RoomBroadcast.access(RoomAccess(mode: .view, links: links)).encoded
        for secret in [owner, owner.derived(.edit, generation: 1), owner.derived(.edit, generation: 1).derived(.view, generation: 2)] {
            XCTAssertFalse(bytes.indices.contains { bytes[$0...].starts(with: secret.bytes) })
        }
    }

    func testDamagedBytesAreRefused() {
        let request = RelayRequest.command(node: "b", client: "c1@b", role: .editor, message: [1, 2, 3]).encoded
        for cut in 0..<request.count {
            XCTAssertThrowsError(try RelayRequest(decoding: Array(request.prefix(cut))), "cut at \(cut)")
        }
        XCTAssertThrowsError(try RelayRequest(decoding: request + [0]))
        XCTAssertThrowsError(try RoomBroadcast(decoding: [99]))
        let access = RoomBroadcast.access(RoomAccess(mode: .view, links: LinkDigests(ownerSecret: LinkSecret.random()))).encoded
        for cut in 0..<access.count {
            XCTAssertThrowsError(try RoomBroadcast(decoding: Array(access.prefix(cut))), "cut at \(cut)")
        }
        XCTAssertThrowsError(try RoomBroadcast(decoding: RoomBroadcast.status(ReplicatedStatus(layout: LayoutStatus(), clients: 1)).encoded.dropLast(2) + [0, 0]))
    }

    func testEveryKeyOfARoomSharesItsHashTagAndChannelsNameTheirRoom() throws {
        let room = try XCTUnwrap(RoomName("demo-1"))
        let keys = ClusterKeys(room)
        for key in [keys.lease, keys.mirror, keys.events, keys.requests, keys.broadcast, keys.nudge, ClusterKeys.state(room)] {
            XCTAssertTrue(key.hasPrefix("fl:{demo-1}:"), key)
        }
        XCTAssertEqual(ClusterKeys.room(ofChannel: keys.broadcast)?.0, room)
        XCTAssertEqual(ClusterKeys.room(ofChannel: keys.broadcast)?.isBroadcast, true)
        XCTAssertEqual(ClusterKeys.room(ofChannel: keys.nudge)?.isBroadcast, false)
        XCTAssertNil(ClusterKeys.room(ofChannel: keys.lease))
        XCTAssertNil(ClusterKeys.room(ofChannel: ClusterKeys.node("a")))
    }
}

/// Pointers between servers: what the owner broadcasts decodes to what it encoded, and what no
/// server writes (a name a client could not give, a client id out of form, a cell beyond 2^53)
/// is refused.
final class PointerWireTests: XCTestCase {
    func testPointerBroadcastsRoundTrip() throws {
        for broadcast in [
            RoomBroadcast.pointers([Pointer(client: "c1@a", name: "Ana", id: 5), Pointer(client: "c2@b", id: nil)], whole: false),
            .pointers([], whole: true),
            .pointers([Pointer(client: "c7@c", name: "é", id: 1 << 53)], whole: true),
        ] {
            XCTAssertEqual(try RoomBroadcast(decoding: broadcast.encoded), broadcast)
        }
    }

    func testHostilePointerBroadcastsAreRefused() {
        for pointer in [Pointer(client: "c1 a", id: 1), Pointer(client: "c1", name: " padded ", id: 1),
                        Pointer(client: "c1", name: String(repeating: "x", count: 33), id: 1),
                        Pointer(client: "c1", id: (1 << 53) + 1)] {
            XCTAssertThrowsError(try RoomBroadcast(decoding: RoomBroadcast.pointers([pointer], whole: false).encoded), "\(pointer)")
        }
        var writer = WireWriter()
        writer.u8(6)
        writer.bool(false)
        writer.int(2_000_000)
        XCTAssertThrowsError(try RoomBroadcast(decoding: writer.bytes))
    }
}
