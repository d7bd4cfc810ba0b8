import ForceLayout
import XCTest
@testable import ImportTool
@testable import LayoutCore

/// An import whose room moves to another server (a `failover`), or whose batch goes unanswered:
/// the batch in flight is looked up in the room's `data` and only what is missing is sent again.
final class ImportResumeTests: XCTestCase {
    private let hello = #"{"type":"hello","client":"c3","limits":{"maxAddPerMessage":2,"maxMessageBytes":4000,"maxAttrBytes":1024}}"#

    private func session() throws -> ImportSession {
        let file = #"{"nodes":[{"id":0},{"id":1},{"id":2},{"id":3}],"links":[{"source":0,"target":1},{"source":2,"target":3}]}"#
        return ImportSession(graph: try GraphFile.read(Array(file.utf8)), window: 1)
    }

    private func message(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }

    private let failover = #"{"type":"event","kind":"failover","node":"b"}"#

    /// The `added` answer to a batch: its cells' ids.
    private func added(_ ids: CellID...) -> JSONValue {
        message(#"{"type":"event","kind":"added","by":"c3","ids":\#(ids)}"#)
    }

    /// A session past its hello whose first batch (keys 0 and 1) was answered with ids 5 and 6.
    private func firstBatchAnswered() throws -> ImportSession {
        var session = try session()
        _ = session.received(message(hello))
        _ = session.received(added(5, 6))
        return session
    }

    /// The keys (or link ends) a sent message carries.
    private func sent(_ action: ImportSession.Action, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        guard case .send(let messages) = action, messages.count == 1, let sent = try? JSONParser.parse(messages[0]) else {
            XCTFail("\(action)", file: file, line: line)
            return []
        }
        if case .array(let cells)? = sent["cells"] { return cells.map { text($0["key"]) } }
        if case .array(let links)? = sent["links"] { return links.map { "\(text($0["source"]))-\(text($0["target"]))" } }
        return []
    }

    private func text(_ value: JSONValue?) -> String {
        switch value {
        case .number(let number)?: String(Int(number))
        case .string(let string)?: string
        default: "-"
        }
    }

    func testABatchThatArrivedBeforeAFailoverIsNotSentAgain() throws {
        var session = try session()
        XCTAssertEqual(sent(session.received(message(hello))), ["0", "1"])
        XCTAssertEqual(sent(session.received(added(5, 6))), ["2", "3"])
        XCTAssertEqual(session.received(message(failover)), .wait)
        XCTAssertEqual(session.phase, .resyncing)
        // The room holds the second batch (ids 7, 8) and, older, cells of someone else with key 2.
        let data = #"{"type":"data","cells":{"id":[3,5,6,7,8],"key":[2,0,1,2,3]},"links":{"source":[],"target":[]}}"#
        XCTAssertEqual(sent(session.received(message(data))), ["5-6", "7-8"])
        guard case .finished(let summary) = session.received(message(#"{"type":"event","kind":"linked","by":"c3"}"#)) else {
            return XCTFail("not finished")
        }
        XCTAssertEqual(summary.cells, 4)
        XCTAssertEqual(summary.links, 2)
    }

    func testABatchThatDidNotArriveIsSentAgainWhole() throws {
        var session = try firstBatchAnswered()
        _ = session.received(message(failover))
        let data = #"{"type":"data","cells":{"id":[5,6],"key":[0,1]},"links":{"source":[],"target":[]}}"#
        XCTAssertEqual(session.received(message(data)), .wait, "its answer may still come")
        XCTAssertEqual(session.tick(now: 50), .wait)
        XCTAssertEqual(sent(session.tick(now: 50 + ImportSession.leftoverWait)), ["2", "3"])
    }

    func testABatchAppliedByTheNewOwnerAfterTheFailoverIsAnsweredNotSentAgain() throws {
        var session = try firstBatchAnswered()
        _ = session.received(message(failover))
        _ = session.received(message(#"{"type":"data","cells":{"id":[5,6],"key":[0,1]},"links":{"source":[],"target":[]}}"#))
        XCTAssertEqual(session.tick(now: 50), .wait)
        // It waited in Redis and the new owner applied it.
        XCTAssertEqual(sent(session.received(added(7, 8))), ["5-6", "7-8"])
        XCTAssertEqual(session.tick(now: 60), .wait, "nothing is sent again")
    }

    func testCellsAndLinksTheFailoverLostAreSentAgain() throws {
        var session = try firstBatchAnswered()
        _ = session.received(added(7, 8))
        XCTAssertEqual(session.progress.done, 4)
        _ = session.received(message(failover))
        // The new owner's state is older than the acknowledgements: cell 6 and 8, and the links, are gone.
        let data = #"{"type":"data","cells":{"id":[5,7],"key":[0,2]},"links":{"source":[],"target":[]}}"#
        XCTAssertEqual(session.received(message(data)), .wait)
        XCTAssertEqual(session.progress.done, 2)
        XCTAssertEqual(session.tick(now: 50), .wait)
        XCTAssertEqual(sent(session.tick(now: 50 + ImportSession.leftoverWait)), ["1", "3"])
        XCTAssertEqual(sent(session.received(added(9, 10))), ["5-9", "7-10"])
        guard case .finished(let summary) = session.received(message(#"{"type":"event","kind":"linked","by":"c3"}"#)) else {
            return XCTFail("not finished")
        }
        XCTAssertEqual(summary.cells, 4)
        XCTAssertEqual(summary.links, 2)
        XCTAssertTrue(summary.notes.contains("sent again after the room moved: 2 cell(s) and 2 link(s) it did not hold"), "\(summary.notes)")
    }

    func testLinksNamingCellsTheFailoverLostGoAgainOnceTheCellsAreBack() throws {
        var session = try firstBatchAnswered()
        // The new owner applied the batch that waited in Redis before it told the failover:
        // the links go before the import hears of it, naming cells the old owner never saved.
        XCTAssertEqual(sent(session.received(added(7, 8))), ["5-6", "7-8"])
        _ = session.received(message(failover))
        let data = #"{"type":"data","cells":{"id":[5,7],"key":[0,2]},"links":{"source":[],"target":[]}}"#
        XCTAssertEqual(session.received(message(data)), .wait, "the links' answer may still come")
        let refusal = #"{"type":"error","code":"bad_request","message":"unknown cell id 6","ref":"import-3"}"#
        XCTAssertEqual(sent(session.received(message(refusal))), ["1", "3"], "the lost cells go again, not a refusal of cells")
        XCTAssertEqual(sent(session.received(added(9, 10))), ["5-9", "7-10"])
        guard case .finished(let summary) = session.received(message(#"{"type":"event","kind":"linked","by":"c3"}"#)) else {
            return XCTFail("not finished")
        }
        XCTAssertEqual(summary.cells, 4)
        XCTAssertEqual(summary.links, 2)
        XCTAssertFalse(summary.notes.contains { $0.contains("refused") }, "\(summary.notes)")
    }

    func testAnOlderServerWithoutKeysEndsTheImportClearly() throws {
        let file = #"{"nodes":[{"id":0},{"id":1}],"links":[]}"#
        var session = ImportSession(graph: try GraphFile.read(Array(file.utf8)))
        _ = session.received(message(#"{"type":"hello","client":"c3","limits":{}}"#))
        guard case .failed(let why) = session.received(message(failover)) else {
            return XCTFail("went on")
        }
        XCTAssertTrue(why.contains("no cell keys to resume by"), why)
    }

    func testLinksFoundInTheRoomAreNotSentAgain() throws {
        var session = try firstBatchAnswered()
        XCTAssertEqual(sent(session.received(added(7, 8))), ["5-6", "7-8"])
        _ = session.received(message(failover))
        let data = #"{"type":"data","cells":{"id":[5,6,7,8],"key":[0,1,2,3]},"links":{"source":[6],"target":[5]}}"#
        XCTAssertEqual(session.received(message(data)), .wait)
        XCTAssertEqual(session.tick(now: 50), .wait)
        XCTAssertEqual(sent(session.tick(now: 50 + ImportSession.leftoverWait)), ["7-8"])
        guard case .finished(let summary) = session.received(message(#"{"type":"event","kind":"linked","by":"c3"}"#)) else {
            return XCTFail("not finished")
        }
        XCTAssertEqual(summary.links, 2)
    }

    func testAnUnansweredBatchIsLookedForOverANewConnection() throws {
        var session = try session()
        _ = session.received(message(hello))
        XCTAssertEqual(session.tick(now: 100), .wait, "the clock starts")
        XCTAssertEqual(session.tick(now: 100 + ImportSession.answerTimeout - 1), .wait)
        XCTAssertEqual(session.tick(now: 100 + ImportSession.answerTimeout), .reconnect)
        XCTAssertEqual(session.received(message(#"{"type":"hello","client":"c9","limits":{}}"#)), .wait)
        // A room whose cells have no data sends no `data`: after a while, none of the batch is there.
        XCTAssertEqual(session.tick(now: 130), .wait)
        XCTAssertEqual(session.tick(now: 130 + ImportSession.dataTimeout), .wait)
        XCTAssertEqual(session.tick(now: 140), .wait)
        XCTAssertEqual(sent(session.tick(now: 140 + ImportSession.leftoverWait)), ["0", "1"])
        XCTAssertEqual(sent(session.received(message(#"{"type":"event","kind":"added","by":"c9","ids":[5,6]}"#))), ["2", "3"],
                       "answers now come to the new connection's client")
    }

    func testAClosedConnectionResumesAndTooManyEndTheImport() throws {
        var session = try session()
        _ = session.received(message(hello))
        for attempt in 0..<ImportSession.maxReconnects {
            XCTAssertEqual(session.connectionLost(now: Double(attempt)), .reconnect)
        }
        guard case .failed(let why) = session.connectionLost(now: 10) else { return XCTFail("went on") }
        XCTAssertTrue(why.contains("stopped at 0 cells"), why)
    }
}
