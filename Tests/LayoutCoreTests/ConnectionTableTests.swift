import XCTest
@testable import LayoutCore

final class ConnectionTableTests: XCTestCase {
    let a = PeerAddress(ipv4: [127, 0, 0, 1])
    let b = PeerAddress(ipv4: [127, 0, 0, 2])

    func table(connections: Int = 10, perAddress: Int = 5, descriptors: Int = 100, timeout: Double = 10) -> ConnectionTable {
        ConnectionTable(policy: .init(maxConnections: connections, maxPerAddress: perAddress,
                                      maxDescriptors: descriptors, timeout: timeout))
    }

    func admitted(_ action: ConnectionTable.AcceptAction) -> ConnectionTable.ID? {
        switch action {
        case .admit(let id), .admitEvicting(let id, _): id
        case .refuse: nil
        }
    }

    func testAdmitsUntilTheAddressCapThenEvictsItsOldestWaitingConnection() {
        var table = table(perAddress: 3)
        let ids = (0..<3).map { _ in admitted(table.accept(from: a, now: 0))! }
        XCTAssertEqual(table.openCount(from: a), 3)
        XCTAssertEqual(table.accept(from: a, now: 1), .admitEvicting(4, evicted: ids[0]))
        XCTAssertEqual(table.openCount(from: a), 3)
        XCTAssertFalse(table.isOpen(ids[0]))
        // The evicted connection still holds its descriptor until it is closed.
        XCTAssertEqual(table.heldCount, 4)
        table.closed(ids[0])
        XCTAssertEqual(table.heldCount, 3)
        XCTAssertEqual(table.openCount(from: a), 3)
        // Another address is not affected by a's cap.
        XCTAssertEqual(table.accept(from: b, now: 1), .admit(5))
    }

    func testWebSocketsAreNeverEvicted() {
        var table = table(perAddress: 2)
        let first = admitted(table.accept(from: a, now: 0))!
        let second = admitted(table.accept(from: a, now: 0))!
        table.upgraded(first)
        XCTAssertEqual(table.accept(from: a, now: 0), .admitEvicting(3, evicted: second))
        table.upgraded(3)
        XCTAssertEqual(table.accept(from: a, now: 0), .refuse(.address(2)))
        XCTAssertEqual(table.webSocketCount, 2)
        XCTAssertTrue(table.isOpen(first))
    }

    func testTheTotalCapEvictsTheOldestWaitingConnectionOfAnyAddress() {
        var table = table(connections: 3, perAddress: 3)
        let first = admitted(table.accept(from: a, now: 0))!
        table.upgraded(first)
        let second = admitted(table.accept(from: b, now: 0))!
        _ = table.accept(from: a, now: 0)
        XCTAssertEqual(table.accept(from: b, now: 0), .admitEvicting(4, evicted: second))
        table.upgraded(3)
        table.upgraded(4)
        XCTAssertEqual(table.accept(from: a, now: 0), .refuse(.connections(3)))
        XCTAssertEqual(table.openCount, 3)
    }

    func testClosingConnectionsCountAgainstTheDescriptorCap() {
        var table = table(connections: 2, perAddress: 2, descriptors: 3)
        let first = admitted(table.accept(from: a, now: 0))!
        _ = table.accept(from: a, now: 0)
        XCTAssertEqual(table.accept(from: a, now: 0), .admitEvicting(3, evicted: first))
        // Three descriptors held (one closing): nothing more until one is really closed.
        XCTAssertEqual(table.accept(from: b, now: 0), .refuse(.descriptors(3)))
        table.closed(first)
        XCTAssertNotNil(admitted(table.accept(from: b, now: 0)))
    }

    func testWaitingConnectionsExpireAtTheirDeadlineWhichARequestExtends() {
        var table = table(timeout: 10)
        let idle = admitted(table.accept(from: a, now: 0))!
        let busy = admitted(table.accept(from: a, now: 0))!
        let socket = admitted(table.accept(from: a, now: 0))!
        table.upgraded(socket)
        table.requestArrived(busy, now: 6)
        XCTAssertEqual(table.expire(now: 9.9), [])
        XCTAssertEqual(table.expire(now: 10), [idle])
        // Expired once: not again, and it no longer counts as open.
        XCTAssertEqual(table.expire(now: 12), [])
        XCTAssertEqual(table.openCount, 2)
        XCTAssertEqual(table.expire(now: 16), [busy])
        XCTAssertEqual(table.expire(now: 1000), [])
        XCTAssertTrue(table.isOpen(socket))
    }

    func testAClosedConnectionFreesItsSlotsOnce() {
        var table = table(perAddress: 1)
        let first = admitted(table.accept(from: a, now: 0))!
        table.closed(first)
        table.closed(first)
        XCTAssertEqual(table.openCount, 0)
        XCTAssertEqual(table.heldCount, 0)
        XCTAssertEqual(table.accept(from: a, now: 0), .admit(2))
        table.closing(2)
        table.closed(2)
        XCTAssertEqual(table.openCount, 0)
        XCTAssertEqual(table.openCount(from: a), 0)
    }

    func testAFloodOfShortConnectionsKeepsTheQueuesSmall() {
        var table = table(connections: 1000, perAddress: 1000, descriptors: 2000)
        for _ in 0..<100_000 {
            let id = admitted(table.accept(from: a, now: 0))!
            table.closed(id)
        }
        XCTAssertEqual(table.openCount, 0)
        XCTAssertLessThanOrEqual(table.waitingQueueLength, 100)
    }

    func testIPv6PeersCountByTheirSlash64AndMappedIPv4AsIPv4() {
        var one = [UInt8](repeating: 0, count: 16)
        one[0] = 0x20; one[1] = 0x01; one[15] = 1
        var two = one
        two[15] = 2
        two[9] = 7
        XCTAssertEqual(PeerAddress(ipv6: one), PeerAddress(ipv6: two))
        var other = one
        other[7] = 1
        XCTAssertNotEqual(PeerAddress(ipv6: one), PeerAddress(ipv6: other))
        let mapped: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 127, 0, 0, 1]
        XCTAssertEqual(PeerAddress(ipv6: mapped), a)
        XCTAssertEqual(PeerAddress(ipv6: mapped).description, "127.0.0.1")
        XCTAssertEqual(PeerAddress(ipv6: two).description, "2001::7:0:0:2")
    }
}
