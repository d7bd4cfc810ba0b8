import XCTest
@testable import LayoutCluster

final class ClusterLinksTests: XCTestCase {
    func testLinkedOnlyWhileBothTheCommandsAndTheSubscriptionReachRedis() {
        let links = ClusterLinks()
        // A stall costs the commands only: unlinked, and linked again once they are back.
        XCTAssertEqual(links.set(commands: false), false)
        XCTAssertNil(links.set(commands: false), "told once a change")
        XCTAssertEqual(links.set(commands: true), true)
        // A restart: both lost; the subscription back first is not enough.
        XCTAssertEqual(links.set(subscriber: false), false)
        XCTAssertNil(links.set(commands: false))
        XCTAssertNil(links.set(subscriber: true))
        XCTAssertEqual(links.set(commands: true), true)
    }
}
