@testable import LayoutServer
import XCTest

final class RoomNameTests: XCTestCase {
    func testNames() {
        for good in ["main", "a", "0", "team-7", "a_b", String(repeating: "x", count: 40)] {
            XCTAssertEqual(RoomName(good)?.description, good, good)
        }
        for bad in ["", "-a", "_a", "A", "Main", "a.b", "a/b", "..", "a%2f", "é", "a b", String(repeating: "x", count: 41)] {
            XCTAssertNil(RoomName(bad), bad)
        }
        XCTAssertEqual(RoomName.main.description, "main")
    }
}

final class RoomRegistryTests: XCTestCase {
    let a = PeerAddress(ipv4: [127, 0, 0, 1])
    let b = PeerAddress(ipv4: [127, 0, 0, 2])
    func name(_ text: String) -> RoomName { RoomName(text)! }

    func registry(maxRooms: Int = 10, perMinute: Int = 5, onDisk: [String] = []) -> RoomRegistry {
        RoomRegistry(policy: .init(maxRooms: maxRooms, roomsPerMinute: perMinute, forgetAfter: 60, unloadAfter: 300),
                     onDisk: onDisk.map(name))
    }

    func testTheFirstClientCreatesARoomAndTheNextJoinIt() {
        var rooms = registry()
        XCTAssertEqual(rooms.join(.main, from: a, now: 0), .create(.main))
        XCTAssertEqual(rooms.join(.main, from: b, now: 1), .join(.main))
        XCTAssertEqual(rooms.loaded[.main]?.clients, 2)
    }

    func testARoomOnDiskIsLoadedNotCreated() {
        var rooms = registry(perMinute: 1, onDisk: ["old", "older"])
        XCTAssertEqual(rooms.join(name("new"), from: a, now: 0), .create(name("new")))
        // The address used its one creation of the minute, but loading is not creating.
        XCTAssertEqual(rooms.join(name("old"), from: a, now: 1), .load(name("old")))
        XCTAssertEqual(rooms.join(name("older"), from: a, now: 1), .load(name("older")))
        XCTAssertEqual(rooms.join(name("newer"), from: a, now: 2), .refuse(.tooFast(1)))
    }

    func testMaxRoomsBoundsTheRoomsInMemory() {
        var rooms = registry(maxRooms: 2, onDisk: ["kept"])
        _ = rooms.join(name("x"), from: a, now: 0)
        _ = rooms.join(name("y"), from: b, now: 0)
        XCTAssertEqual(rooms.join(name("z"), from: b, now: 0), .refuse(.full(2)))
        XCTAssertEqual(rooms.join(name("kept"), from: b, now: 0), .refuse(.full(2)))
        XCTAssertEqual(rooms.join(name("x"), from: b, now: 0), .join(name("x")), "joining a room in memory is always fine")
    }

    func testRoomsPerMinuteIsASlidingWindowPerAddress() {
        var rooms = registry(maxRooms: 100, perMinute: 3)
        for n in 0..<3 { XCTAssertEqual(rooms.join(name("r\(n)"), from: a, now: Double(n)), .create(name("r\(n)"))) }
        XCTAssertEqual(rooms.join(name("r3"), from: a, now: 30), .refuse(.tooFast(3)))
        XCTAssertEqual(rooms.join(name("r3"), from: b, now: 30), .create(name("r3")), "another address has its own minute")
        XCTAssertEqual(rooms.join(name("r4"), from: a, now: 60.5), .create(name("r4")), "the first creation is a minute old")
        XCTAssertNil(rooms.loaded[name("r5")])
    }

    func testAnEmptyRoomIsForgottenAMinuteAfterItsLastClientLeft() {
        var rooms = registry()
        _ = rooms.join(name("x"), from: a, now: 0)
        rooms.left(name("x"), now: 10)
        XCTAssertEqual(rooms.sweep(now: 69), [])
        XCTAssertEqual(rooms.sweep(now: 70), [.forget(name("x"))])
        XCTAssertNil(rooms.loaded[name("x")])
        XCTAssertEqual(rooms.join(name("x"), from: a, now: 71), .create(name("x")))
    }

    func testASettledRoomWithCellsIsUnloadedAfterItsIdleTimeAndLoadedAgain() {
        var rooms = registry()
        _ = rooms.join(name("x"), from: a, now: 0)
        rooms.update(name("x"), cells: 50, settled: false)
        rooms.left(name("x"), now: 10)
        XCTAssertEqual(rooms.sweep(now: 400), [], "still moving: it steps on until it settles")
        rooms.update(name("x"), cells: 50, settled: true)
        XCTAssertEqual(rooms.sweep(now: 400), [.unload(name("x"))])
        XCTAssertTrue(rooms.onDisk.contains(name("x")))
        XCTAssertEqual(rooms.join(name("x"), from: b, now: 401), .load(name("x")))
    }

    func testAClientComingBackCancelsTheCountdown() {
        var rooms = registry()
        _ = rooms.join(name("x"), from: a, now: 0)
        rooms.left(name("x"), now: 10)
        _ = rooms.join(name("x"), from: a, now: 50)
        XCTAssertEqual(rooms.sweep(now: 1000), [])
        rooms.left(name("x"), now: 1000)
        rooms.left(name("x"), now: 1001)
        XCTAssertEqual(rooms.loaded[name("x")]?.clients, 0, "a second leave does not go below zero")
    }

    func testARoomWatchedOnOtherServersStaysUntilTheyLeaveThenCountsAsEmptyFromThen() {
        var rooms = registry()
        _ = rooms.join(name("x"), from: a, now: 0)
        rooms.left(name("x"), now: 10)
        rooms.watched(name("x"), elsewhere: true, now: 20)
        XCTAssertEqual(rooms.sweep(now: 1000), [], "clients elsewhere keep it")
        rooms.watched(name("x"), elsewhere: false, now: 1000)
        XCTAssertEqual(rooms.sweep(now: 1059), [])
        XCTAssertEqual(rooms.sweep(now: 1060), [.forget(name("x"))], "empty from when the last one elsewhere left")
    }

    func testARoomWithClientsHereIsNotEmptyWhenNoneAreElsewhere() {
        var rooms = registry()
        _ = rooms.join(name("x"), from: a, now: 0)
        rooms.watched(name("x"), elsewhere: false, now: 5)
        XCTAssertNil(rooms.loaded[name("x")]?.emptySince)
        XCTAssertEqual(rooms.sweep(now: 1000), [])
    }

    func testAFailedLoadLeavesNothingInMemory() {
        var rooms = registry(onDisk: ["broken"])
        XCTAssertEqual(rooms.join(name("broken"), from: a, now: 0), .load(name("broken")))
        rooms.failed(name("broken"))
        XCTAssertNil(rooms.loaded[name("broken")])
        XCTAssertTrue(rooms.onDisk.contains(name("broken")), "its file stays as it is")
    }

    func testTheListingPutsTheBusiestRoomsFirst() {
        var rooms = registry(maxRooms: 200, perMinute: 200)
        for n in 0..<150 { _ = rooms.join(name("r\(n)"), from: a, now: 0) }
        _ = rooms.join(name("r7"), from: b, now: 0)
        rooms.update(name("r9"), cells: 10, settled: true)
        let listing = rooms.listing()
        XCTAssertEqual(listing.count, 100)
        XCTAssertEqual(listing.prefix(2).map(\.name), [name("r7"), name("r9")])
    }
}
