import ForceLayout
import XCTest
@testable import LayoutCore
@testable import LayoutRooms

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

    func registry(maxRooms: Int = 10, perMinute: Int = 5, perAddress: Int = .max, onDisk: [String] = []) -> RoomRegistry {
        RoomRegistry(policy: .init(maxRooms: maxRooms, roomsPerMinute: perMinute, forgetAfter: 60, unloadAfter: 300,
                                   maxRoomsPerAddress: perAddress, evictAfter: 30),
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

    func testOneAddressMayHoldOnlyItsShareOfTheRooms() {
        var rooms = registry(maxRooms: 10, perMinute: 100, perAddress: 2, onDisk: ["saved"])
        XCTAssertEqual(rooms.join(name("a1"), from: a, now: 0), .create(name("a1")))
        XCTAssertEqual(rooms.join(name("a2"), from: a, now: 0), .create(name("a2")))
        XCTAssertEqual(rooms.join(name("a3"), from: a, now: 0), .refuse(.tooMany(2)))
        XCTAssertEqual(rooms.join(name("b1"), from: b, now: 0), .create(name("b1")), "another address has its own share")
        XCTAssertEqual(rooms.join(name("saved"), from: a, now: 0), .load(name("saved")), "loading is not creating")
        XCTAssertEqual(rooms.join(name("b1"), from: a, now: 0), .join(name("b1")), "joining is not creating")
        rooms.left(name("a1"), now: 1)
        XCTAssertEqual(rooms.sweep(now: 61), [.forget(name("a1"))])
        XCTAssertEqual(rooms.join(name("a3"), from: a, now: 62), .create(name("a3")), "a room gone gives the share back")
    }

    func testAShareOfEveryRoomIsTheRoomCap() {
        var rooms = registry(maxRooms: 2, perMinute: 100, perAddress: 2)
        _ = rooms.join(name("a1"), from: a, now: 0)
        _ = rooms.join(name("a2"), from: a, now: 0)
        XCTAssertEqual(rooms.join(name("a3"), from: a, now: 0), .refuse(.full(2)))
    }

    func testAtMaxRoomsAnIdleRoomMakesWayNothingLostFirst() {
        var rooms = registry(maxRooms: 4, perMinute: 100)
        for n in 0..<4 { _ = rooms.join(name("r\(n)"), from: a, now: 0) }
        // r0: no file, cells; r1: a file, moving; r2: a file, settled; r3: no cells.
        rooms.update(name("r0"), cells: 5, settled: true, unloadable: false)
        rooms.update(name("r1"), cells: 5, settled: false)
        rooms.update(name("r2"), cells: 5, settled: true)
        rooms.update(name("r3"), cells: 0, settled: true)
        XCTAssertNil(rooms.makeWay(now: 0), "every room has a client")
        for n in 0..<4 { rooms.left(name("r\(n)"), now: Double(10 - n)) }
        XCTAssertEqual(rooms.makeWay(now: 11), .forget(name("r3")), "no cells: nothing to lose")
        XCTAssertEqual(rooms.makeWay(now: 11), .unload(name("r2")), "settled, with a file")
        XCTAssertEqual(rooms.makeWay(now: 11), .unload(name("r1")), "with a file, even moving")
        XCTAssertNil(rooms.makeWay(now: 11), "no file: not before it was empty evictAfter")
        XCTAssertEqual(rooms.makeWay(now: 40), .evict(name("r0")))
        XCTAssertTrue(rooms.loaded.isEmpty)
        XCTAssertEqual(rooms.onDisk, [name("r1"), name("r2")])
    }

    func testAmongRoomsOfOneKindTheLongestEmptyMakesWay() {
        var rooms = registry(maxRooms: 3, perMinute: 100)
        for n in 0..<3 {
            _ = rooms.join(name("r\(n)"), from: a, now: 0)
            rooms.update(name("r\(n)"), cells: 5, settled: true)
        }
        rooms.left(name("r0"), now: 5)
        rooms.left(name("r1"), now: 2)
        XCTAssertEqual(rooms.join(name("new"), from: b, now: 6), .refuse(.full(3)))
        XCTAssertEqual(rooms.makeWay(now: 6), .unload(name("r1")))
        XCTAssertEqual(rooms.join(name("new"), from: b, now: 6), .create(name("new")))
    }

    func testALoadUnloadsIdleSettledRoomsToFitItsCellsOrNothing() {
        var rooms = registry(maxRooms: 10, perMinute: 100)
        for (n, cells) in [(0, 300), (1, 200), (2, 400), (3, 500)] {
            _ = rooms.join(name("r\(n)"), from: a, now: 0)
            rooms.update(name("r\(n)"), cells: cells, settled: n != 2)
        }
        rooms.left(name("r0"), now: 3)
        rooms.left(name("r1"), now: 1)
        rooms.left(name("r2"), now: 0)
        // r3 has a client, r2 still moves: only r1 and r0 (500 cells together) may go.
        XCTAssertEqual(rooms.makeWay(freeing: 600), [], "they cannot free 600: nothing goes")
        XCTAssertEqual(rooms.loaded.count, 4)
        XCTAssertEqual(rooms.makeWay(freeing: 150), [.unload(name("r1"))], "the longest empty first")
        XCTAssertEqual(rooms.makeWay(freeing: 300), [.unload(name("r0"))])
        XCTAssertEqual(Set(rooms.loaded.keys), [name("r2"), name("r3")])
        XCTAssertEqual(rooms.join(name("r1"), from: b, now: 5), .load(name("r1")))
    }

    func testRoomsWhoseCellsAreNotCountedHereFreeNothing() {
        var rooms = registry()
        _ = rooms.join(name("relayed"), from: a, now: 0)
        rooms.update(name("relayed"), cells: 500, settled: true, budgeted: false)
        rooms.left(name("relayed"), now: 1)
        XCTAssertEqual(rooms.makeWay(freeing: 100), [], "stepped on another server: unloading it frees nothing here")
    }

    func testARoomFileFoundIsLoadedNotCreated() {
        var rooms = registry(perMinute: 1)
        rooms.found(name("dropped"))
        XCTAssertEqual(rooms.join(name("dropped"), from: a, now: 0), .load(name("dropped")))
    }
}

final class ForgottenFilesTests: XCTestCase {
    func testNamesCarryWhenTheFileWasMovedAside() {
        XCTAssertEqual(ForgottenFiles.name(of: "/s/demo.json", at: 1_764_163_200), "demo.1764163200.json")
        XCTAssertEqual(ForgottenFiles.name(of: "/s/demo.json", at: 5, attempt: 2), "demo.5-2.json")
        XCTAssertEqual(ForgottenFiles.name(of: "/s/layout.state", at: 5), "layout.state.5.json")
        XCTAssertEqual(ForgottenFiles.movedAt("demo.1764163200.json"), 1_764_163_200)
        XCTAssertEqual(ForgottenFiles.movedAt("demo.5-2.json"), 5)
        for other in ["demo.json", "notes.txt", ".5.json", "demo.x5.json", "demo.-1.json"] {
            XCTAssertNil(ForgottenFiles.movedAt(other), other)
        }
        XCTAssertEqual(ForgottenFiles.directory(beside: "/s/demo.json"), "/s/.forgotten")
    }

    func testALayoutThatKeepsNoneOfTheFilesCellsSetsTheFileAside() {
        func layout(_ ids: [CellID]) -> LayoutSnapshot {
            LayoutSnapshot(parameters: .defaults, nextID: (ids.max() ?? 0) + 1,
                           cells: ids.map { CellRecord(id: $0, x: 0, y: 0, pinned: false) })
        }
        XCTAssertFalse(ForgottenFiles.losesEveryCell(fileMaxID: nil, layout([])), "the file holds no cells")
        XCTAssertTrue(ForgottenFiles.losesEveryCell(fileMaxID: 5, layout([])), "cleared")
        XCTAssertTrue(ForgottenFiles.losesEveryCell(fileMaxID: 5, layout([6, 7])), "cleared, then new cells added")
        XCTAssertFalse(ForgottenFiles.losesEveryCell(fileMaxID: 5, layout([5, 6])), "one of its cells is kept")
        XCTAssertFalse(ForgottenFiles.losesEveryCell(fileMaxID: 5, layout([1])))
    }

    func testOnlyFilesOlderThanTheRetentionExpire() {
        let names = ["a.100.json", "b.200.json", "c.150-1.json", "readme.txt", "d.json"]
        XCTAssertEqual(ForgottenFiles.expired(names, now: 250, retention: 100), ["a.100.json", "c.150-1.json"])
        XCTAssertEqual(ForgottenFiles.expired(names, now: 250, retention: 1000), [])
    }

    func testKeepingAsideNeverReplacesAFileAndPurgeDeletesOnlyExpiredOnes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forgotten-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let aside = "\(directory)/.forgotten"
        let when = Date(timeIntervalSince1970: 1000)
        FileManager.default.createFile(atPath: "\(directory)/demo.json", contents: Data("one".utf8))
        XCTAssertNotNil(try ForgottenFiles.keep("\(directory)/demo.json", in: aside, removing: false, now: when))
        XCTAssertEqual(try String(contentsOfFile: "\(directory)/demo.json", encoding: .utf8), "one", "kept, not moved")
        // The write that replaces it (a rename, as StateFile.save does) leaves the kept one alone.
        FileManager.default.createFile(atPath: "\(directory)/new", contents: Data("two".utf8))
        XCTAssertEqual(rename("\(directory)/new", "\(directory)/demo.json"), 0)
        XCTAssertNotNil(try ForgottenFiles.keep("\(directory)/demo.json", in: aside, removing: true, now: when))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(directory)/demo.json"))
        XCTAssertEqual(try String(contentsOfFile: "\(aside)/demo.1000.json", encoding: .utf8), "one")
        XCTAssertEqual(try String(contentsOfFile: "\(aside)/demo.1000-1.json", encoding: .utf8), "two")
        XCTAssertNil(try ForgottenFiles.keep("\(directory)/demo.json", in: aside, removing: true, now: when), "no file: nothing kept")
        FileManager.default.createFile(atPath: "\(aside)/notes.txt", contents: Data())
        XCTAssertEqual(ForgottenFiles.purge(aside, retention: 500, now: 1400), [])
        XCTAssertEqual(ForgottenFiles.purge(aside, retention: 500, now: 1500).sorted(),
                       [".forgotten/demo.1000-1.json", ".forgotten/demo.1000.json"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: aside), ["notes.txt"])
        XCTAssertEqual(RoomFiles(directory: directory, mainFile: nil).stored(), [], "the folder holds no rooms")
    }
}
