import Foundation
import XCTest
@testable import ImportTool
@testable import LayoutCore

/// What the import reads from each graph file in `Tests/fixtures/graphs/` (a hand-written
/// input), written beside it as `NAME.expected.json`: the nodes' keys and labels, the links
/// with their attributes and strengths, the notes. The page's reader (`graphfile.js`,
/// `Tests/web/graphfixtures.test.mjs`) must make the same of each. A change of the reader
/// fails here until the expectations are written again:
///
///     FORCELAYOUT_WRITE_FIXTURES=1 swift test --filter GraphFixturesTests
final class GraphFixturesTests: XCTestCase {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures").appendingPathComponent("graphs")

    /// Each graph file of `Tests/fixtures/graphs/` (a hand-written input) and what the import
    /// reads from it, as JSON: `{"keys":[…],"labels":[…],"links":[[source,target,attrs,strength],…],"notes":[…]}`.
    private static func fixtures() throws -> [(name: String, bytes: [UInt8])] {
        let graphs = folder
        let inputs = try FileManager.default.contentsOfDirectory(atPath: graphs.path)
            .filter { !$0.hasSuffix(".expected.json") }.sorted()
        return try inputs.map { input in
            let graph = try GraphFile.read(Array(try Data(contentsOf: graphs.appendingPathComponent(input))))
            var writer = JSONWriter(reservingCapacity: 1024)
            writer.raw("{\"keys\":")
            writer.array(graph.nodes) { $0.string($1.key) }
            writer.raw(",\"labels\":")
            writer.array(graph.nodes) { $0.string($1.cell.data.label ?? "") }
            writer.raw(",\"links\":")
            writer.array(graph.edges) { writer, edge in
                writer.raw("[")
                writer.integer(edge.source)
                writer.raw(",")
                writer.integer(edge.target)
                writer.raw(",")
                writer.raw(edge.attrs?.bytes ?? Array("null".utf8))
                writer.raw(",")
                if let strength = edge.strength { writer.number(strength) } else { writer.raw("null") }
                writer.raw("]")
            }
            writer.raw(",\"notes\":")
            writer.array(graph.notes) { $0.string($1) }
            writer.raw("}\n")
            return ("\(input).expected.json", writer.bytes)
        }
    }

    func testTheExpectationsAreWhatTheImportReads() throws {
        let write = ProcessInfo.processInfo.environment["FORCELAYOUT_WRITE_FIXTURES"] == "1"
        let fixtures = try Self.fixtures()
        XCTAssertGreaterThanOrEqual(fixtures.count, 3)
        for (name, bytes) in fixtures {
            let file = Self.folder.appendingPathComponent(name)
            if write {
                try Data(bytes).write(to: file)
                continue
            }
            XCTAssertEqual((try? Data(contentsOf: file)).map(Array.init), bytes,
                           "Tests/fixtures/graphs/\(name) is not what the import reads now: FORCELAYOUT_WRITE_FIXTURES=1 swift test --filter GraphFixturesTests, then make graphfile.js follow")
        }
    }
}
