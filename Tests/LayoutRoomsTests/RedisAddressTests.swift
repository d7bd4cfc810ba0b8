import XCTest
@testable import LayoutCore

final class RedisAddressTests: XCTestCase {
    func testWhatAURLMayLeaveOutTakesRedisDefaults() throws {
        XCTAssertEqual(try RedisAddress(parsing: "redis://127.0.0.1"), RedisAddress(host: "127.0.0.1"))
        XCTAssertEqual(try RedisAddress(parsing: "redis://localhost:6380/"), RedisAddress(host: "localhost", port: 6380))
        XCTAssertEqual(try RedisAddress(parsing: "redis://cache.internal:7000/3"),
                       RedisAddress(host: "cache.internal", port: 7000, database: 3))
        XCTAssertEqual(try RedisAddress(parsing: "redis://layout@10.0.0.5:6379/1"),
                       RedisAddress(host: "10.0.0.5", database: 1, user: "layout"))
        XCTAssertEqual(try RedisAddress(parsing: "redis://[::1]:6390"), RedisAddress(host: "::1", port: 6390))
    }

    func testMalformedURLsSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("127.0.0.1:6379", "not a redis:// URL"), ("rediss://host", "only redis://"), ("redis://", "no host"),
            ("redis://host:0", "port"), ("redis://host:65536", "port"), ("redis://host:port", "port"),
            ("redis://host/16", "database"), ("redis://host/x", "database"), ("redis://us er@host", "user"),
            ("redis://[::1", "closing ]"), ("redis://ho st", "host"), ("redis://host?db=1", "query"),
        ]
        for (url, why) in cases {
            XCTAssertThrowsError(try RedisAddress(parsing: url), url) { error in
                XCTAssertTrue("\(error)".contains(why), "\(url): \(error)")
            }
        }
    }

    /// A password on the command line is readable by every user of the machine: refused, and
    /// not echoed in the refusal.
    func testAPasswordInTheURLIsRefusedWithoutBeingEchoed() {
        for url in ["redis://:s3cret@host:1/2", "redis://user:s3cret@host", "redis://user:s3cret@[::1]:6379"] {
            XCTAssertThrowsError(try RedisAddress(parsing: url), url) { error in
                let text = "\(error)"
                XCTAssertFalse(text.contains("s3cret"), text)
                XCTAssertTrue(text.contains("--redis-password-file") && text.contains(RedisCredentials.passwordVariable), text)
            }
        }
    }

    func testTheDescriptionHidesThePassword() throws {
        let address = try RedisAddress(parsing: "redis://host:1/2")
        XCTAssertEqual(address.with(user: nil, password: "s3cret").description, "redis://:***@host:1/2")
        XCTAssertEqual(address.with(user: "layout", password: "s3cret").description, "redis://layout:***@host:1/2")
        XCTAssertEqual(address.description, "redis://host:1/2")
    }

    private struct Missing: Error {}

    func testCredentialsComeFromAFileOrTheEnvironment() throws {
        let plain = try RedisAddress(parsing: "redis://host")
        let named = try RedisAddress(parsing: "redis://layout@host")
        let file: (String) throws -> [UInt8] = { path in
            switch path {
            case "/pw": Array("s3cret\n".utf8)
            case "/crlf": Array("s3cret\r\n".utf8)
            case "/empty": Array("\n".utf8)
            case "/two": Array("a\nb\n".utf8)
            default: throw Missing()
            }
        }
        let resolve = { (address: RedisAddress, path: String?, environment: [String: String]) throws -> RedisAddress in
            try RedisCredentials.resolve(address, passwordFile: path, environment: environment, readFile: file)
        }
        XCTAssertEqual(try resolve(plain, nil, [:]), plain)
        XCTAssertEqual(try resolve(plain, "/pw", [:]).password, "s3cret")
        XCTAssertEqual(try resolve(plain, "/crlf", [:]).password, "s3cret")
        XCTAssertEqual(try resolve(plain, nil, [RedisCredentials.passwordVariable: "env"]).password, "env")
        XCTAssertEqual(try resolve(named, "/pw", [:]), plain.with(user: "layout", password: "s3cret"))
        XCTAssertEqual(try resolve(plain, nil, [RedisCredentials.passwordVariable: "env", RedisCredentials.userVariable: "u"]),
                       plain.with(user: "u", password: "env"))
        let refusals: [(RedisAddress, String?, [String: String], String)] = [
            (plain, "/pw", [RedisCredentials.passwordVariable: "env"], "twice"),
            (plain, "/missing", [:], "cannot read"), (plain, "/empty", [:], "one line"), (plain, "/two", [:], "one line"),
            (named, nil, [:], "needs its password"),
            (named, "/pw", [RedisCredentials.userVariable: "other"], "user is given twice"),
            (plain, "/pw", [RedisCredentials.userVariable: "bad user"], RedisCredentials.userVariable),
        ]
        for (address, path, environment, why) in refusals {
            XCTAssertThrowsError(try resolve(address, path, environment), why) { error in
                XCTAssertTrue("\(error)".contains(why), "\(error)")
                XCTAssertFalse("\(error)".contains("s3cret") || "\(error)".contains("env\""), "\(error)")
            }
        }
    }

    func testNodeNames() {
        XCTAssertTrue(NodeName.isValid("node-1_b"))
        for bad in ["", "A", "a b", "é", String(repeating: "a", count: 33), "a:b", "a@b"] {
            XCTAssertFalse(NodeName.isValid(bad), bad)
        }
    }
}
