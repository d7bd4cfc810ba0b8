import XCTest
@testable import LayoutCluster
@testable import LayoutCore

/// The cluster's decisions, with no Redis: reconnecting, leases, where a new room goes.
final class ClusterLogicTests: XCTestCase {
    func testBackoffDoublesToTwoSecondsAndResets() {
        var backoff = RedisBackoff()
        XCTAssertTrue(backoff.mayTry(now: 0))
        var delays: [Double] = []
        for step in 0..<7 {
            backoff.failed(now: Double(step))
            delays.append(backoff.delay)
        }
        XCTAssertEqual(delays, [0.1, 0.2, 0.4, 0.8, 1.6, 2, 2])
        XCTAssertFalse(backoff.mayTry(now: 6.5))
        XCTAssertTrue(backoff.mayTry(now: 8))
        backoff.succeeded()
        XCTAssertEqual(backoff.delay, 0)
    }

    func testLeasesAreRenewedEverySecondAndWatchedOnesTriedEveryHalfSecond() throws {
        let room = try XCTUnwrap(RoomName("x")), other = try XCTUnwrap(RoomName("y"))
        var book = LeaseBook()
        book.acquired(room, now: 10)
        book.watching(other, now: 10)
        XCTAssertEqual(book.due(now: 10.4), [])
        XCTAssertEqual(book.due(now: 10.5), [.tryTakeover(other)])
        XCTAssertEqual(book.due(now: 11), [.renew(room), .tryTakeover(other)])
        XCTAssertEqual(book.due(now: 11.2), [], "not due again before its period passed")
        book.renewed(room, now: 11.1)
        XCTAssertEqual(book.due(now: 12.1), [.renew(room), .tryTakeover(other)])
        book.acquired(other, now: 12.2)  // the takeover succeeded
        XCTAssertEqual(book.held, [room, other])
        book.released(room)
        XCTAssertEqual(book.held, [other])
        book.renewed(room, now: 13)
        XCTAssertEqual(book.held, [other], "a late answer does not bring a released lease back")
        XCTAssertEqual(book.due(now: 13.3), [.renew(other)])
    }

    func testAStuckServerStopsRenewingButStillWatchesAndRenewsAtOnceWhenItComesBack() throws {
        let room = try XCTUnwrap(RoomName("x")), other = try XCTUnwrap(RoomName("y"))
        var book = LeaseBook()
        book.acquired(room, now: 10)
        book.watching(other, now: 10)
        XCTAssertEqual(book.due(now: 11, serving: false), [.tryTakeover(other)], "no renewal while stuck")
        XCTAssertEqual(book.due(now: 11.6, serving: false), [.tryTakeover(other)])
        XCTAssertEqual(book.due(now: 11.7, serving: true), [.renew(room)], "overdue: renewed on the first round back")
        XCTAssertEqual(book.due(now: 11.8, serving: true), [])
    }

    func testANewRoomGoesWhereTheFewestRoomsAreSteppedThisServerAmongEquals() {
        func node(_ name: String, _ rooms: Int) -> NodeSummary {
            NodeSummary(node: name, clients: 0, rooms: (0..<rooms).map { .init(name: "r\($0)", clients: 0, cells: 0, settled: true, tick: 0) },
                        relayed: 0, uptimeSeconds: 0)
        }
        XCTAssertEqual(ClusterView().placement(for: "b"), "b", "nothing known: here")
        XCTAssertEqual(ClusterView(nodes: [node("a", 1), node("b", 1), node("c", 0)]).placement(for: "a"), "c")
        XCTAssertEqual(ClusterView(nodes: [node("a", 0), node("b", 1), node("c", 0)]).placement(for: "c"), "c")
        XCTAssertEqual(ClusterView(nodes: [node("a", 0), node("b", 1), node("c", 0)]).placement(for: "b"), "a")
        var view = ClusterView(nodes: [node("a", 0), node("b", 0)])
        view.assume(RoomName("new")!, at: "a")
        view.assume(RoomName("new")!, at: "a")
        XCTAssertEqual(view.assumed.count, 1, "a room placed is counted once")
        XCTAssertEqual(view.placement(for: "a"), "b")
        XCTAssertTrue(view.rooms.isEmpty, "a room placed is listed only once its server reports it")
        view.forget(RoomName("new")!)
        XCTAssertEqual(view.placement(for: "a"), "a", "it had an owner after all")
    }

    /// `/rooms`: one entry per room, naming the server that steps it, whatever else claims it.
    func testEachRoomIsListedOnceWithTheServerFurthestOn() {
        func room(_ name: String, tick: Int, cells: Int) -> NodeSummary.OwnedRoom {
            .init(name: name, clients: 1, cells: cells, settled: false, tick: tick)
        }
        var view = ClusterView(nodes: [
            NodeSummary(node: "b", clients: 1, rooms: [room("x", tick: 3, cells: 0)], relayed: 0, uptimeSeconds: 1),
            NodeSummary(node: "a", clients: 1, rooms: [room("x", tick: 40, cells: 5), room("y", tick: 1, cells: 1)],
                        relayed: 0, uptimeSeconds: 1),
            NodeSummary(node: "c", clients: 1, rooms: [room("y", tick: 1, cells: 1)], relayed: 1, uptimeSeconds: 1),
        ])
        view.assume(RoomName("x")!, at: "c")
        XCTAssertEqual(view.rooms.map { "\($0.room.name)@\($0.node)" }, ["x@a", "y@a"])
        XCTAssertEqual(view.clients, 3)
        // This server's own summary, fresh, in place of what it said last.
        let fresh = view.replacing(NodeSummary(node: "c", clients: 0, rooms: [room("z", tick: 1, cells: 2)], relayed: 2,
                                               uptimeSeconds: 2))
        XCTAssertEqual(fresh.rooms.map { "\($0.room.name)@\($0.node)" }, ["x@a", "y@a", "z@c"])
        XCTAssertEqual(fresh.nodes.count, 3)
    }
}

final class FencedBatchTests: XCTestCase {
    func testAFencedBatchCarriesEachCommandAfterItsWordCount() {
        let command = RedisCommand.fenced(lease: "fl:{x}:lease", holder: "a", [
            RedisCommand.words("RPUSH", "q", "v"), RedisCommand.words("LPOP", "q"),
        ])
        let words = command.map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(words[0], "EVAL")
        XCTAssertEqual(Array(words[2...]), ["1", "fl:{x}:lease", "a", "3", "RPUSH", "q", "v", "2", "LPOP", "q"])
    }

    func testWhatRedisSaidOfTheLeaseIsRead() {
        XCTAssertEqual(Fenced(.array([.integer(1), .integer(3)])), .ran(.integer(3)))
        XCTAssertEqual(Fenced(.array([.integer(1)])), .ran(.null), "a nil last reply may end the array")
        XCTAssertEqual(Fenced(.error("FENCED the lease is held by b")), .refused("FENCED the lease is held by b"))
        XCTAssertNil(Fenced(.error("ERR unknown command")), "another error is not a refusal")
        XCTAssertNil(Fenced(.array([.integer(0), .null])))
        XCTAssertNil(Fenced(.integer(1)))
    }
}
