import XCTest
@testable import ImportTool
@testable import LayoutCore

/// The import leaves out the attributes a server's `maxAttrBytes` cannot take, and says so.
final class ImportAttrsTests: XCTestCase {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func testTheImportSessionLeavesOutAttrsOverTheServersBound() throws {
        let graph = try GraphFile.read(Array(#"{"nodes":[{"id":0,"club":"x"},{"id":1,"blob":"\#(String(repeating: "y", count: 200))"}],"links":[{"source":0,"target":1,"weight":4,"note":"\#(String(repeating: "z", count: 200))"}]}"#.utf8))
        var session = ImportSession(graph: graph)
        func message(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }
        guard case .send(let cells) = session.received(message(#"{"type":"hello","client":"c1","limits":{"maxAttrBytes":100}}"#)) else {
            return XCTFail("no cells sent")
        }
        XCTAssertTrue(text(Array(cells.joined())).contains(#""cells":[{"label":"0","key":0,"attrs":{"club":"x"}},{"label":"1","key":1}]"#), text(Array(cells.joined())))
        guard case .send(let links) = session.received(message(#"{"type":"event","kind":"added","by":"c1","ids":[5,6]}"#)) else {
            return XCTFail("no links sent")
        }
        // The weight (4, the heaviest) is the link's strength, though its attributes are left out.
        XCTAssertTrue(text(Array(links.joined())).contains(#""links":[{"source":5,"target":6,"strength":1}]"#), text(Array(links.joined())))
        guard case .finished(let summary) = session.received(message(#"{"type":"event","kind":"linked","by":"c1"}"#)) else {
            return XCTFail("not finished")
        }
        XCTAssertEqual(summary.notes, ["1 node attribute set(s) left out: over maxAttrBytes (100) or too big for a message",
                                       "1 link attribute set(s) left out: over maxAttrBytes (100) or too big for a message"])
    }

    /// A server whose maxAttrBytes is near its maxMessageBytes: a cell whose attributes are
    /// within the one but cannot fit a message goes without them, not the import's end.
    func testACellThatFitsNoMessageWithItsAttrsGoesWithout() throws {
        let blob = String(repeating: "y", count: 1000)
        let graph = try GraphFile.read(Array(#"{"nodes":[{"id":0,"blob":"\#(blob)"},{"id":1}],"links":[{"source":0,"target":1,"blob":"\#(blob)"}]}"#.utf8))
        var session = ImportSession(graph: graph)
        func message(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }
        guard case .send(let cells) = session.received(message(#"{"type":"hello","client":"c1","limits":{"maxAttrBytes":2000,"maxMessageBytes":1024}}"#)) else {
            return XCTFail("no cells sent")
        }
        XCTAssertTrue(text(Array(cells.joined())).contains(#""cells":[{"label":"0","key":0},{"label":"1","key":1}]"#), text(Array(cells.joined())))
        guard case .send(let links) = session.received(message(#"{"type":"event","kind":"added","by":"c1","ids":[5,6]}"#)) else {
            return XCTFail("no links sent")
        }
        XCTAssertTrue(text(Array(links.joined())).contains(#""links":[{"source":5,"target":6}]"#), text(Array(links.joined())))
        guard case .finished(let summary) = session.received(message(#"{"type":"event","kind":"linked","by":"c1"}"#)) else {
            return XCTFail("not finished")
        }
        XCTAssertEqual(summary.cells, 2)
        XCTAssertEqual(summary.notes, ["1 node attribute set(s) left out: over maxAttrBytes (2000) or too big for a message",
                                       "1 link attribute set(s) left out: over maxAttrBytes (2000) or too big for a message"])
    }

    /// The import reads the limits a server's hello states, each within the bounds of
    /// `Limits.table` (`LimitTableTests` checks hello writes every one).
    func testTheImportReadsWhatHelloSays() throws {
        let hello = try JSONParser.parse(Array(#"{"maxCells":7,"messageBurst":2.5,"maxAttrBytes":1073741824,"roomsPerMinute":"x"}"#.utf8))
        var expected = Limits()
        expected.maxCells = 7
        expected.messageBurst = 2.5
        XCTAssertEqual(ImportSession.limits(hello), expected, "a value out of bounds or not a number is not taken")
    }
}
