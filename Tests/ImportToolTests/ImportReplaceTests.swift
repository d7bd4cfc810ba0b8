import ForceLayout
import XCTest
@testable import ImportTool
@testable import LayoutCore

/// `forcelayout import --replace`: the room's `clear` goes first, and no cell before its
/// `cleared`; a clear that goes unanswered is sent again over the new connection (no cell of
/// the import went yet, so that changes nothing it sent); without `replace`, no clear at all.
final class ImportReplaceTests: XCTestCase {
    private let hello = #"{"type":"hello","client":"c3","limits":{"maxAddPerMessage":2,"maxMessageBytes":4000,"maxAttrBytes":1024}}"#

    private func session(replace: Bool) throws -> ImportSession {
        let file = #"{"nodes":[{"id":0},{"id":1},{"id":2}],"links":[{"source":0,"target":1}]}"#
        return ImportSession(graph: try GraphFile.read(Array(file.utf8)), window: 4, replace: replace)
    }

    private func message(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }

    /// The `type` of each message an action sends.
    private func types(_ action: ImportSession.Action) -> [String] {
        guard case .send(let messages) = action else { return [] }
        return messages.map { message in
            guard case .string(let type)? = (try? JSONParser.parse(message))?["type"] else { return "?" }
            return type
        }
    }

    func testTheRoomIsClearedBeforeAnyCell() throws {
        var session = try session(replace: true)
        XCTAssertEqual(types(session.received(message(hello))), ["clear"])
        XCTAssertEqual(session.phase, .clearing)
        XCTAssertEqual(session.received(message(#"{"type":"event","kind":"added","by":"c5","ids":[1]}"#)), .wait,
                       "someone else's cells meanwhile: still waiting for the clear")
        XCTAssertEqual(session.received(message(#"{"type":"event","kind":"cleared","by":"c5","ids":[1]}"#)), .wait,
                       "someone else's clear is not this import's")
        XCTAssertEqual(types(session.received(message(#"{"type":"event","kind":"cleared","by":"c3","ids":[1]}"#))), ["add", "add"])
        _ = session.received(message(#"{"type":"event","kind":"added","by":"c3","ids":[7,8]}"#))
        XCTAssertEqual(types(session.received(message(#"{"type":"event","kind":"added","by":"c3","ids":[9]}"#))), ["link"])
        guard case .finished(let summary) = session.received(message(#"{"type":"event","kind":"linked","by":"c3"}"#)) else {
            return XCTFail("not finished")
        }
        XCTAssertEqual([summary.cells, summary.links], [3, 1])
    }

    func testWithoutReplaceNothingIsCleared() throws {
        var session = try session(replace: false)
        XCTAssertEqual(types(session.received(message(hello))), ["add", "add"])
    }

    func testARefusedClearEndsTheImport() throws {
        var session = try session(replace: true)
        _ = session.received(message(hello))
        guard case .failed(let why) = session.received(message(#"{"type":"error","code":"forbidden","ref":"import-clear","message":"viewers change nothing"}"#)) else {
            return XCTFail("went on")
        }
        XCTAssertEqual(why, "the server refused to clear the room: viewers change nothing")
    }

    func testAnUnansweredClearIsSentAgainOverTheNewConnection() throws {
        var session = try session(replace: true)
        _ = session.received(message(hello))
        XCTAssertEqual(session.tick(now: 100), .wait)
        XCTAssertEqual(session.tick(now: 100 + ImportSession.answerTimeout), .reconnect)
        XCTAssertEqual(types(session.received(message(#"{"type":"hello","client":"c9","limits":{}}"#))), ["clear"])
        XCTAssertEqual(types(session.received(message(#"{"type":"event","kind":"cleared","by":"c9","ids":[]}"#))), ["add", "add"])
        // A failover while clearing: clear again on the same connection.
        var moved = try self.session(replace: true)
        _ = moved.received(message(hello))
        XCTAssertEqual(types(moved.received(message(#"{"type":"event","kind":"failover","node":"b"}"#))), ["clear"])
    }
}
