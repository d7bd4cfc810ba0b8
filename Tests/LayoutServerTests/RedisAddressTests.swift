import XCTest
@testable import LayoutServer

final class RedisAddressTests: XCTestCase {
    func testWhatAURLMayLeaveOutTakesRedisDefaults() throws {
        XCTAssertEqual(try RedisAddress(parsing: "redis://127.0.0.1"), RedisAddress(host: "127.0.0.1"))
        XCTAssertEqual(try RedisAddress(parsing: "redis://localhost:6380/"), RedisAddress(host: "localhost", port: 6380))
        XCTAssertEqual(try RedisAddress(parsing: "redis://cache.internal:7000/3"),
                       RedisAddress(host: "cache.internal", port: 7000, database: 3))
        XCTAssertEqual(try RedisAddress(parsing: "redis://:s3cret@10.0.0.5:6379/1"),
                       RedisAddress(host: "10.0.0.5", database: 1, password: "s3cret"))
        XCTAssertEqual(try RedisAddress(parsing: "redis://[::1]:6390"), RedisAddress(host: "::1", port: 6390))
    }

    func testMalformedURLsSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("127.0.0.1:6379", "not a redis:// URL"), ("rediss://host", "only redis://"), ("redis://", "no host"),
            ("redis://host:0", "port"), ("redis://host:65536", "port"), ("redis://host:port", "port"),
            ("redis://host/16", "database"), ("redis://host/x", "database"), ("redis://user:pw@host", "credentials"),
            ("redis://[::1", "closing ]"), ("redis://ho st", "host"), ("redis://host?db=1", "query"),
        ]
        for (url, why) in cases {
            XCTAssertThrowsError(try RedisAddress(parsing: url), url) { error in
                XCTAssertTrue("\(error)".contains(why), "\(url): \(error)")
            }
        }
    }

    func testTheDescriptionHidesThePassword() throws {
        let address = try RedisAddress(parsing: "redis://:s3cret@host:1/2")
        XCTAssertEqual(address.description, "redis://:***@host:1/2")
    }

    func testNodeNames() {
        XCTAssertTrue(ClusterConfig.validNodeName("node-1_b"))
        for bad in ["", "A", "a b", "é", String(repeating: "a", count: 33), "a:b", "a@b"] {
            XCTAssertFalse(ClusterConfig.validNodeName(bad), bad)
        }
    }
}
