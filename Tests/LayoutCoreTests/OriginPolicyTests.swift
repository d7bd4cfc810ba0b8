import XCTest
@testable import LayoutCore

final class OriginPolicyTests: XCTestCase {
    func testClientsWithoutOriginAreAllowed() throws {
        let policy = try OriginPolicy()
        XCTAssertEqual(policy.verdict(origin: nil, host: "127.0.0.1:8080"), .allowed)
    }

    func testThePagesOwnOriginIsAllowed() throws {
        let policy = try OriginPolicy()
        XCTAssertEqual(policy.verdict(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080"), .allowed)
        XCTAssertEqual(policy.verdict(origin: "http://LOCALHOST:8080", host: "localhost:8080"), .allowed)
        XCTAssertEqual(policy.verdict(origin: "http://[::1]:9000", host: "[::1]:9000"), .allowed)
        XCTAssertEqual(policy.verdict(origin: "http://localhost", host: "localhost"), .allowed, "default port 80")
        // Behind a TLS proxy the page is https while this server speaks http: the scheme may differ.
        XCTAssertEqual(policy.verdict(origin: "https://localhost:8443", host: "localhost:8443"), .allowed)
    }

    func testCrossSiteOriginsAreRefused() throws {
        let policy = try OriginPolicy()
        for origin in ["http://evil.example", "http://127.0.0.1:8081",
                       "http://localhost:8080", "null", "file://", "http://127.0.0.1:8080.evil.example", ""] {
            guard case .refused = policy.verdict(origin: origin, host: "127.0.0.1:8080") else {
                return XCTFail("\(origin) was allowed")
            }
        }
    }

    func testAllowOriginAddsOrigins() throws {
        let policy = try OriginPolicy(allowing: ["https://Dash.example.com", "http://localhost:3000"])
        XCTAssertEqual(policy.verdict(origin: "https://dash.example.com:443", host: "127.0.0.1:8080"), .allowed)
        XCTAssertEqual(policy.verdict(origin: "http://localhost:3000", host: "127.0.0.1:8080"), .allowed)
        XCTAssertNotEqual(policy.verdict(origin: "http://dash.example.com", host: "127.0.0.1:8080"), .allowed)
        let open = try OriginPolicy(allowing: ["*"])
        XCTAssertEqual(open.verdict(origin: "http://anything.example", host: "127.0.0.1:8080"), .allowed)
    }

    func testMalformedAllowOriginIsAnError() {
        for origin in ["example.com", "ftp://example.com", "https://", "https://a b", "https://x.com/path", "https://x.com:99999"] {
            XCTAssertThrowsError(try OriginPolicy(allowing: [origin]), origin)
        }
    }

    /// A DNS-rebinding page is same-origin with its own Host; on loopback its Host gives it away.
    func testOnLoopbackTheHostMustNameLoopback() throws {
        let policy = try OriginPolicy()
        XCTAssertNotEqual(policy.verdict(origin: "http://rebind.example:8080", host: "rebind.example:8080"), .allowed)
        XCTAssertNotEqual(policy.verdict(origin: nil, host: "rebind.example:8080"), .allowed)
        XCTAssertNotEqual(policy.verdict(origin: nil, host: nil), .allowed)
        XCTAssertEqual(policy.verdict(origin: nil, host: "127.1.2.3:8080"), .allowed)
        XCTAssertEqual(policy.verdict(origin: nil, host: "app.localhost:8080"), .allowed)
        let exposed = try OriginPolicy(loopbackOnly: false)
        XCTAssertEqual(exposed.verdict(origin: "http://box.lan:8080", host: "box.lan:8080"), .allowed)
        XCTAssertNotEqual(exposed.verdict(origin: "http://evil.example", host: "box.lan:8080"), .allowed)
    }
}
