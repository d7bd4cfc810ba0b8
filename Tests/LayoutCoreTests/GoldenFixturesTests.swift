import ForceLayout
import Foundation
import XCTest
@testable import LayoutCore

/// The cross-language facts, written by the server's own code into `Tests/fixtures/`, which
/// the node tests (`Tests/web/`) and the end-to-end tests (`Tests/e2e/`) read: a v2 frame with
/// and without its membership (and the v1 frame of the same layout), `hello.paramSpecs` and
/// `hello.limits`. (What the import reads from the graph files beside them is
/// `ImportToolTests/GraphFixturesTests`'.) A change on the server's side fails here until the fixtures are written
/// again, and then fails the other sides until they follow:
///
///     FORCELAYOUT_WRITE_FIXTURES=1 swift test --filter GoldenFixturesTests
final class GoldenFixturesTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")

    /// Each fixture by name, as the server's code writes it now.
    private static func fixtures() throws -> [(name: String, bytes: [UInt8])] {
        let cells = [CellRecord(id: 1, x: 10.5, y: -3, pinned: false), CellRecord(id: 2, x: 0, y: 0, pinned: false),
                     CellRecord(id: 5, x: 22.1, y: 7.4, pinned: true)]
        let simulation = try Simulation(snapshot: LayoutSnapshot(parameters: .defaults, nextID: 6, cells: cells))
        let owners = [Ownership.Run(client: "c1", first: 1, last: 2), Ownership.Run(client: "c3", first: 5, last: 5)]
        let at = 1_763_700_000_123
        var binary = BinaryFrameEncoder(), text = FrameEncoder()
        let v2 = binary.encode(simulation, owners: owners, at: at)
        let v1 = text.encode(simulation, owners: owners, at: at)
        var limits = JSONWriter(reservingCapacity: 1024)
        ServerMessages.writeLimits(Limits(), into: &limits)
        var kinds = JSONWriter(reservingCapacity: 256)
        kinds.strings(EventKind.allCases.map(\.rawValue))
        return [
            ("frame-v2-membership.bin", v2.withIDs.bytes),
            ("frame-v2-bare.bin", v2.withoutIDs.bytes),
            ("frame-v1-membership.json", v1.withIDs.bytes),
            ("frame-v1-bare.json", v1.withoutIDs.bytes),
            ("hello-paramspecs.json", ServerMessages.paramSpecs),
            ("hello-limits.json", limits.bytes),
            ("event-kinds.json", kinds.bytes),
        ]
    }

    func testTheFixturesAreWhatTheServerWrites() throws {
        let write = ProcessInfo.processInfo.environment["FORCELAYOUT_WRITE_FIXTURES"] == "1"
        for (name, bytes) in try Self.fixtures() {
            let file = Self.folder.appendingPathComponent(name)
            if write {
                try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
                try Data(bytes).write(to: file)
                continue
            }
            let committed = try? Data(contentsOf: file)
            XCTAssertEqual(committed.map(Array.init), bytes,
                           "Tests/fixtures/\(name) is not what the server writes now: FORCELAYOUT_WRITE_FIXTURES=1 swift test --filter GoldenFixturesTests, then make the node and e2e tests follow")
        }
    }

    /// The v2 and v1 fixtures are one frame: the same head figures, ids and owners.
    func testTheTwoFormsOfTheFixtureFrameAgree() throws {
        let fixtures = Dictionary(uniqueKeysWithValues: try Self.fixtures().map { ($0.name, $0.bytes) })
        guard case .object(let v1)? = try? JSONParser.parse(fixtures["frame-v1-membership.json"]!) else { return XCTFail() }
        let members = Dictionary(uniqueKeysWithValues: v1.map { ($0.key, $0.value) })
        let v2 = fixtures["frame-v2-membership.bin"]!
        XCTAssertEqual(members["tick"], .number(0))
        XCTAssertEqual(members["ids"], .array([.number(1), .number(2), .number(5)]))
        XCTAssertEqual(Array(v2[40..<52]), [1, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0], "the same ids, u32 little-endian")
        XCTAssertEqual(v2[1], BinaryFrameEncoder.flagMembership)
        XCTAssertEqual(fixtures["frame-v2-bare.bin"]![1], 0)
    }
}
