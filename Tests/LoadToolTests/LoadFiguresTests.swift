import XCTest
@testable import LoadTool

final class LoadFiguresTests: XCTestCase {
    func testWebSocketURLs() throws {
        let url = try WebSocketURL("ws://127.0.0.1:8080/ws")
        XCTAssertEqual([url.host, String(url.port), url.path], ["127.0.0.1", "8080", "/ws"])
        XCTAssertEqual(try WebSocketURL("ws://localhost").port, 80)
        XCTAssertEqual(try WebSocketURL("ws://[::1]:9000/ws").host, "::1")
        for bad in ["http://x/ws", "wss://x/ws", "ws://", "ws://x:0/", "ws://x:99999/", "ws://x:port/"] {
            XCTAssertThrowsError(try WebSocketURL(bad), bad)
        }
    }

    func testPercentilesByNearestRank() {
        let values = (1...100).map(Double.init)
        XCTAssertEqual(Figures.percentile(values, 0.5), 50)
        XCTAssertEqual(Figures.percentile(values, 0.99), 99)
        XCTAssertEqual(Figures.percentile(values, 1), 100)
        XCTAssertEqual(Figures.percentile([7], 0.99), 7)
        XCTAssertNil(Figures.percentile([], 0.5))
    }

    func testReportSharesAndStalledClients() throws {
        var reader = LoadTally(stalled: false)
        reader.frames = 190
        var slow = LoadTally(stalled: true)
        slow.closedWith = 1008
        let report = LoadReport(seconds: 10, tallies: [reader, slow],
                                before: .init(tick: 0, rssMB: 20, clients: 2, cells: 2000, at: 100),
                                after: .init(tick: 200, rssMB: 22.5, clients: 2, cells: 2000, at: 110))
        let json = report.json
        XCTAssertEqual(json["serverTicksPerSecond"] as? Double, 20)
        XCTAssertEqual((json["delivered"] as? [String: Double])?["min"], 0.95)
        XCTAssertEqual((json["serverRSSMB"] as? [String: Double])?["growth"], 2.5)
        XCTAssertEqual(json["stalledClosed"] as? Int, 1)
        XCTAssertEqual(json["stalledCloseCodes"] as? [Int], [1008])
        XCTAssertEqual((json["framesPerSecond"] as? [String: Double])?["min"], 19)
    }
}
