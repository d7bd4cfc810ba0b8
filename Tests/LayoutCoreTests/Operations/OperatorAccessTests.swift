import XCTest
@testable import LayoutCore

/// Who may read `GET /metrics`: the admin token's holder when one is set, else this machine.
final class OperatorAccessTests: XCTestCase {
    func testWithATokenOnlyItsHolderIsLetInFromAnywhere() {
        for loopback in [true, false] {
            XCTAssertEqual(OperatorAccess.verdict(adminTokenSet: true, credential: .admin, peerIsLoopback: loopback), .allowed)
            guard case .refused(401, let why) = OperatorAccess.verdict(adminTokenSet: true, credential: .none, peerIsLoopback: loopback) else {
                return XCTFail("no token brought: 401")
            }
            XCTAssertTrue(why.contains("Authorization: Bearer"), why)
            XCTAssertEqual(OperatorAccess.verdict(adminTokenSet: true, credential: .invalid, peerIsLoopback: loopback),
                           .refused(status: 403, why: "this is not the admin token"))
            let roomLink = Credential.key(LinkSecret(text: String(repeating: "A", count: 22))!)
            XCTAssertEqual(OperatorAccess.verdict(adminTokenSet: true, credential: roomLink, peerIsLoopback: loopback),
                           .refused(status: 403, why: "this is not the admin token"), "a room's link is not the operator's")
        }
    }

    func testWithoutATokenOnlyThisMachine() {
        XCTAssertEqual(OperatorAccess.verdict(adminTokenSet: false, credential: .none, peerIsLoopback: true), .allowed)
        for credential in [Credential.none, .invalid, .admin] {
            guard case .refused(403, let why) = OperatorAccess.verdict(adminTokenSet: false, credential: credential, peerIsLoopback: false) else {
                return XCTFail("\(credential) from elsewhere: 403")
            }
            XCTAssertTrue(why.contains("--admin-token-file"), why)
        }
    }

    func testLoopbackAddresses() {
        XCTAssertTrue(PeerAddress(ipv4: [127, 0, 0, 1]).isLoopback)
        XCTAssertTrue(PeerAddress(ipv4: [127, 9, 8, 7]).isLoopback)
        XCTAssertFalse(PeerAddress(ipv4: [10, 0, 0, 1]).isLoopback)
        XCTAssertFalse(PeerAddress(ipv4: [128, 0, 0, 1]).isLoopback)
        XCTAssertTrue(PeerAddress(ipv6: [UInt8](repeating: 0, count: 15) + [1]).isLoopback)
        XCTAssertFalse(PeerAddress(ipv6: [0x20, 1, 0xd, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]).isLoopback)
        XCTAssertTrue(PeerAddress(ipv6: [UInt8](repeating: 0, count: 10) + [0xff, 0xff, 127, 0, 0, 1]).isLoopback,
                      "an IPv4-mapped loopback address")
    }
}

/// What `/readyz` answers: ready only when nothing stands in the way, and every reason said.
final class ReadinessTests: XCTestCase {
    func testReadyWhenNothingStandsInTheWay() {
        for readiness in [Readiness(), Readiness(stateFolderWritable: true), Readiness(stateFolderWritable: true, redisReachable: true)] {
            XCTAssertTrue(readiness.isReady)
            XCTAssertEqual(String(decoding: readiness.json, as: UTF8.self), #"{"ready":true}"#)
        }
    }

    func testEveryReasonIsSaid() {
        let readiness = Readiness(draining: true, stateFolderWritable: false, redisReachable: false)
        XCTAssertFalse(readiness.isReady)
        XCTAssertEqual(String(decoding: readiness.json, as: UTF8.self),
                       #"{"ready":false,"reasons":["draining: the server is stopping","the state folder is not writable","Redis is unreachable"]}"#)
        XCTAssertEqual(Readiness(redisReachable: false).reasons, ["Redis is unreachable"])
        XCTAssertEqual(Readiness(draining: true).reasons, ["draining: the server is stopping"])
    }

    func testAlive() {
        XCTAssertEqual(String(decoding: Readiness.aliveJSON(uptimeSeconds: 42), as: UTF8.self), #"{"alive":true,"uptimeSeconds":42}"#)
    }
}

/// The catalogue follows Prometheus's naming conventions, once for every metric.
final class MetricCatalogueTests: XCTestCase {
    func testNamesFollowTheConventions() {
        let valid = try! Regex("^[a-zA-Z_:][a-zA-Z0-9_:]*$")
        for metric in MetricCatalogue.allCases {
            let name = metric.rawValue
            XCTAssertNotNil(name.wholeMatch(of: valid), name)
            XCTAssertTrue(name.hasPrefix("forcelayout_") || name.hasPrefix("process_"), name)
            XCTAssertFalse(metric.help.isEmpty, name)
            XCTAssertFalse(metric.help.contains("\n"), name)
            if let buckets = metric.buckets {
                XCTAssertTrue(name.hasSuffix("_seconds"), "a histogram of durations is in seconds: \(name)")
                XCTAssertEqual(buckets, buckets.sorted(), name)
                XCTAssertEqual(Set(buckets).count, buckets.count, name)
            }
        }
        XCTAssertEqual(Set(MetricCatalogue.allCases.map(\.rawValue)).count, MetricCatalogue.allCases.count)
    }
}
