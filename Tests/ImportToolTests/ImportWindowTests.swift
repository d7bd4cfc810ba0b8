import ForceLayout
import XCTest
@testable import ImportTool
@testable import LayoutCore

/// Several messages in flight (`ImportSession.window`): the answers come in the order the
/// messages were applied, errors by their own ref; links wait for every cell's id; a failover
/// finds each message in flight whole or not at all.
final class ImportWindowTests: XCTestCase {
    private let hello = #"{"type":"hello","client":"c3","limits":{"maxAddPerMessage":2,"maxMessageBytes":4000,"maxAttrBytes":1024}}"#

    /// Six nodes 0-5, links 0-1, 2-3, 4-5, 1-2; two items a message.
    private func session(window: Int) throws -> ImportSession {
        let file = #"{"nodes":[{"id":0},{"id":1},{"id":2},{"id":3},{"id":4},{"id":5}],"links":[{"source":0,"target":1},{"source":2,"target":3},{"source":4,"target":5},{"source":1,"target":2}]}"#
        return ImportSession(graph: try GraphFile.read(Array(file.utf8)), window: window)
    }

    private func message(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }

    /// Each sent message's ref and keys (or link ends).
    private func sent(_ action: ImportSession.Action, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        guard case .send(let messages) = action else {
            XCTFail("\(action)", file: file, line: line)
            return []
        }
        return messages.map { bytes in
            let sent = try! JSONParser.parse(bytes)
            let ref: String = if case .string(let ref)? = sent["ref"] { ref } else { "-" }
            var items: [String] = []
            if case .array(let cells)? = sent["cells"] { items = cells.map { number($0["key"]) } }
            if case .array(let links)? = sent["links"] { items = links.map { "\(number($0["source"]))-\(number($0["target"]))" } }
            return "\(ref) " + items.joined(separator: ",")
        }
    }

    private func number(_ value: JSONValue?) -> String {
        if case .number(let number)? = value { return String(Int(number)) }
        return "-"
    }

    private func added(_ ids: [Int]) -> JSONValue {
        message(#"{"type":"event","kind":"added","by":"c3","ids":\#(ids)}"#)
    }

    func testMessagesGoUpToTheWindowAndEachAnswerLetsOneMore() throws {
        var session = try session(window: 2)
        XCTAssertEqual(sent(session.received(message(hello))), ["import-1 0,1", "import-2 2,3"])
        XCTAssertEqual(sent(session.received(added([10, 11]))), ["import-3 4,5"])
        XCTAssertEqual(session.received(added([12, 13])), .wait, "links wait for every cell's id")
        // The last cells' answer: the links go, two messages at once.
        XCTAssertEqual(sent(session.received(added([14, 15]))), ["import-4 10-11,12-13", "import-5 14-15,11-12"])
        XCTAssertEqual(session.received(message(#"{"type":"event","kind":"linked","by":"c3"}"#)), .wait)
        guard case .finished(let summary) = session.received(message(#"{"type":"event","kind":"linked","by":"c3"}"#)) else {
            return XCTFail("not finished")
        }
        XCTAssertEqual(summary.cells, 6)
        XCTAssertEqual(summary.links, 4)
    }

    func testAnErrorNamesItsMessageByRef() throws {
        var session = try session(window: 4)
        XCTAssertEqual(sent(session.received(message(hello))).count, 3)
        for ids in [[10, 11], [12, 13], [14, 15]] { _ = session.received(added(ids)) }
        XCTAssertEqual(session.inFlight.count, 4, "both link messages in flight")
        // The second link message is refused, the first linked: the answers pair up by ref
        // and by order.
        XCTAssertEqual(session.received(message(#"{"type":"error","code":"limit","message":"maxLinks","ref":"import-5"}"#)), .wait)
        XCTAssertEqual(session.received(message(#"{"type":"error","code":"limit","message":"maxLinks","ref":"import-9"}"#)), .wait,
                       "a ref of no message in flight is not an answer")
        guard case .finished(let summary) = session.received(message(#"{"type":"event","kind":"linked","by":"c3"}"#)) else {
            return XCTFail("not finished")
        }
        XCTAssertEqual(summary.links, 2)
        XCTAssertEqual(summary.notes.last, "2 link(s) refused by the server: maxLinks")
    }

    func testAFailoverFindsEachMessageInFlightWholeOrNotAtAll() throws {
        var session = try session(window: 3)
        XCTAssertEqual(sent(session.received(message(hello))).count, 3)
        _ = session.received(message(#"{"type":"event","kind":"failover","node":"b"}"#))
        // The new owner has the first and third messages' cells, not the second's.
        let data = #"{"type":"data","cells":{"id":[20,21,22,23],"key":[0,1,4,5]},"links":{"source":[],"target":[]}}"#
        XCTAssertEqual(session.received(message(data)), .wait, "the second may still be answered")
        XCTAssertEqual(session.progress.done, 4)
        XCTAssertEqual(session.tick(now: 50), .wait)
        XCTAssertEqual(sent(session.tick(now: 50 + ImportSession.leftoverWait)), ["import-4 2,3"], "only what the room lacks")
        XCTAssertEqual(sent(session.received(added([24, 25]))), ["import-5 20-21,24-25", "import-6 22-23,21-24"])
    }

    func testALateAnswerDuringAResendWaitLeavesTheRestToBeSentAgain() throws {
        var session = try session(window: 3)
        _ = session.received(message(hello))
        _ = session.received(message(#"{"type":"event","kind":"failover","node":"b"}"#))
        let data = #"{"type":"data","cells":{"id":[],"key":[]},"links":{"source":[],"target":[]}}"#
        XCTAssertEqual(session.received(message(data)), .wait)
        // The first message waited in Redis and is applied now; the others are lost.
        XCTAssertEqual(session.received(added([30, 31])), .wait, "nothing new while the others may still come")
        XCTAssertEqual(session.tick(now: 70), .wait)
        XCTAssertEqual(sent(session.tick(now: 70 + ImportSession.leftoverWait)), ["import-4 2,3", "import-5 4,5"])
    }
}
