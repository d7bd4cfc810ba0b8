import EventBus
import ForceLayout
import XCTest
@testable import LayoutCore

final class ServerMessagesTests: XCTestCase {
    func testEventEncodings() throws {
        let cases: [(LayoutEvent, [String: JSONValue])] = [
            (LayoutEvent(kind: .added, by: "c7", tick: 1200, detail: .cells([101, 102])),
             ["kind": .string("added"), "by": .string("c7"), "ids": .array([.number(101), .number(102)])]),
            (LayoutEvent(kind: .pinned, by: "c1", tick: 3, detail: .pinned(id: 4, x: 1.5, y: -2)),
             ["id": .number(4), "x": .number(1.5), "y": .number(-2)]),
            (LayoutEvent(kind: .settled, by: nil, tick: 9, detail: .none), ["kind": .string("settled"), "tick": .number(9)]),
            (LayoutEvent(kind: .joined, by: "c2", tick: 0, detail: .membership(client: "c2", clients: 3)),
             ["client": .string("c2"), "clients": .number(3)]),
        ]
        for (event, expected) in cases {
            let value = try JSONParser.parse(ServerMessages.event(Envelope(seq: 57, event: event)))
            XCTAssertEqual(value["type"], .string("event"))
            XCTAssertEqual(value["seq"], .number(57))
            for (key, field) in expected { XCTAssertEqual(value[key], field, "\(event.kind) \(key)") }
            if event.by == nil { XCTAssertNil(value["by"]) }
        }
        var parameters = Parameters.defaults
        parameters.charge = 20
        let params = try JSONParser.parse(ServerMessages.event(Envelope(seq: 1, event:
            LayoutEvent(kind: .params, by: "c1", tick: 0, detail: .params(parameters, changed: ["charge"])))))
        XCTAssertEqual(params["params"]?["charge"], .number(20))
        XCTAssertEqual(params["params"]?["stiffness"], .number(0.02))
        XCTAssertEqual(params["params"]?["collide"], .bool(false))
        XCTAssertEqual(params["changed"], .array([.string("charge")]))
    }

    func testHelloStatsReplayAndError() throws {
        var status = LayoutStatus()
        status.tick = 1234
        status.cells = 3
        status.pinned = [2, 9]
        let event = Envelope(seq: 5, event: LayoutEvent(kind: .added, by: "c1", tick: 1, detail: .cells([1])))
        let owner = LinkSecret.random()
        let links = LinkDigests(ownerSecret: owner).secrets(from: owner)
        let hello = try JSONParser.parse(ServerMessages.hello(client: "c7", room: RoomName("demo")!, clients: 2,
                                                              standing: Standing(role: .owner, access: .view, links: links),
                                                              status: status, limits: Limits(), events: [event]))
        XCTAssertEqual(hello["type"], .string("hello"))
        XCTAssertEqual(hello["protocol"], .number(1))
        XCTAssertEqual(hello["client"], .string("c7"))
        XCTAssertEqual(hello["room"], .string("demo"))
        XCTAssertEqual(hello["clients"], .number(2))
        XCTAssertEqual(hello["role"], .string("owner"))
        XCTAssertEqual(hello["access"], .string("view"))
        XCTAssertEqual(hello["links"]?["owner"], .string(owner.text))
        XCTAssertEqual(hello["links"]?["edit"], .string(owner.derived(.edit, generation: 1).text))
        XCTAssertEqual(hello["links"]?["view"], .string(owner.derived(.edit, generation: 1).derived(.view, generation: 1).text))
        let role = try JSONParser.parse(ServerMessages.role(Standing(role: .viewer, access: .private)))
        XCTAssertEqual(role, .object([("type", .string("role")), ("role", .string("viewer")), ("access", .string("private"))]))
        XCTAssertEqual(hello["params"]?["tickRate"], .number(20))
        XCTAssertEqual(hello["params"]?["theta"], .number(0.9))
        XCTAssertEqual(hello["limits"]?["maxCells"], .number(100_000))
        XCTAssertEqual(hello["limits"]?["maxAddPerMessage"], .number(1000))
        XCTAssertEqual(hello["limits"]?["maxMessageBytes"], .number(65536))
        XCTAssertEqual(hello["limits"]?["maxConnections"], .number(4096))
        XCTAssertEqual(hello["limits"]?["maxConnectionsPerAddress"], .number(256))
        XCTAssertEqual(hello["limits"]?["maxQueuedBytes"], .number(Double(4 << 20)))
        XCTAssertEqual(hello["limits"]?["requestTimeout"], .number(10))
        XCTAssertEqual(hello["limits"]?["maxRooms"], .number(1000))
        XCTAssertEqual(hello["limits"]?["roomsPerMinute"], .number(30))
        XCTAssertEqual(hello["limits"]?["maxTotalCells"], .number(1_000_000))
        XCTAssertEqual(hello["limits"]?["roomIdleSeconds"], .number(300))
        XCTAssertEqual(hello["tick"], .number(1234))
        XCTAssertEqual(hello["settled"], .bool(true))
        XCTAssertEqual(hello["pinned"], .array([.number(2), .number(9)]))
        XCTAssertEqual(hello["events"]?.arrayCount, 1)

        let server = ServerMessages.ServerFigures(clients: 9, connections: 7, rooms: 3, cells: 40, uptimeSeconds: 61, residentMB: 12.5)
        let stats = try JSONParser.parse(ServerMessages.stats(status, room: .main, clients: 4, server: server))
        XCTAssertEqual(stats["room"], .string("main"))
        XCTAssertEqual(stats["totalClients"], .number(9))
        XCTAssertEqual(stats["rooms"], .number(3))
        XCTAssertEqual(stats["totalCells"], .number(40))
        for key in ["cells", "clients", "tick", "settled", "tickMs", "tickMsP99", "tickRate", "frameBytes", "uptimeS", "maxMove", "totalMove"] {
            XCTAssertNotNil(stats[key], key)
        }
        XCTAssertEqual(stats["clients"], .number(4))
        XCTAssertEqual(stats["connections"], .number(7))

        var other = LayoutStatus()
        other.cells = 500
        other.tick = 77
        other.settled = false
        let rooms = try JSONParser.parse(ServerMessages.rooms([(RoomName("demo")!, 2, other, .view), (.main, 0, status, .open)]))
        XCTAssertEqual(rooms["rooms"]?.arrayCount, 2)
        guard case .array(let listed)? = rooms["rooms"] else { return XCTFail("no rooms array") }
        XCTAssertEqual(listed[0]["name"], .string("demo"))
        XCTAssertEqual(listed[0]["clients"], .number(2))
        XCTAssertEqual(listed[0]["cells"], .number(500))
        XCTAssertEqual(listed[0]["settled"], .bool(false))
        XCTAssertEqual(listed[0]["tick"], .number(77))
        XCTAssertEqual(listed[0]["access"], .string("view"))
        XCTAssertEqual(listed[1]["name"], .string("main"))

        let replay = try JSONParser.parse(ServerMessages.replay([event, event]))
        XCTAssertEqual(replay["events"]?.arrayCount, 2)

        let error = try JSONParser.parse(ServerMessages.error(ProtocolError(.badRequest, "charge \"x\"", ref: "a1")))
        XCTAssertEqual(error["code"], .string("bad_request"))
        XCTAssertEqual(error["message"], .string("charge \"x\""))
        XCTAssertEqual(error["ref"], .string("a1"))
    }
}

extension JSONValue {
    var arrayCount: Int? {
        if case .array(let elements) = self { return elements.count }
        return nil
    }
}
