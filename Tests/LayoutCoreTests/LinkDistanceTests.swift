import ForceLayout
import Foundation
import XCTest
@testable import LayoutCore

/// A link keeps a `distance` only when its client gave one (else it follows the room's
/// `edgeLength`): through the decoder, a relayed request, events, the data message, state
/// files (version 6) and the files from before (every link stored with a distance, 30 the
/// default then, read back as none).
final class LinkDistanceTests: XCTestCase {
    private func links(_ text: String) throws -> [Link] {
        guard case .layout(.link(let records)) = try MessageDecoder(limits: Limits()).decode(Array(text.utf8)).get().message else {
            throw XCTSkip("not a link message")
        }
        return records.map(\.link)
    }

    func testTheDecoderAndARelayedRequestKeepNoneAsNone() throws {
        let given = try links(#"{"type":"link","links":[{"source":1,"target":2},{"source":2,"target":3,"distance":45}]}"#)
        XCTAssertEqual(given.map(\.distance), [nil, 45])
        let relayed = ClientRequest(.layout(.link(given.map { LinkRecord($0) })), ref: "r").encoded
        XCTAssertEqual(String(decoding: relayed, as: UTF8.self),
                       #"{"type":"link","links":[{"source":1,"target":2},{"source":2,"target":3,"distance":45}],"ref":"r"}"#)
        XCTAssertEqual(try links(String(decoding: relayed, as: UTF8.self)), given)
    }

    func testTheDataMessageHasADistanceColumnOnlyWhenALinkHasOne() {
        let none = String(decoding: DataMessage.encode(records: [], links: [Link(source: 1, target: 2)]), as: UTF8.self)
        XCTAssertEqual(none, #"{"type":"data","cells":{"id":[]},"links":{"source":[1],"target":[2]}}"#)
        let some = String(decoding: DataMessage.encode(records: [], links: [Link(source: 1, target: 2), Link(source: 2, target: 3, distance: 80)]),
                          as: UTF8.self)
        XCTAssertTrue(some.contains(#""links":{"source":[1,2],"target":[2,3],"distance":[null,80]}"#), some)
    }

    private func saved(_ links: [Link]) throws -> SavedState {
        let simulation = Simulation(seed: 1)
        simulation.add(count: 3, spawn: .random)
        try simulation.link(links)
        return SavedState(layout: simulation.snapshot(), reservation: 4)
    }

    func testStateFilesKeepADistanceOnlyWhenGivenAndRoundTrip() throws {
        let state = try saved([Link(source: 1, target: 2), Link(source: 2, target: 3, distance: 30), Link(source: 1, target: 3, distance: 45)])
        let bytes = StateFile.bytes(of: state)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains(#""links":[{"source":1,"target":2},{"distance":30,"source":2,"target":3},{"distance":45,"source":1,"target":3}]"#), text)
        XCTAssertTrue(text.contains(#""version":6"#), text)
        XCTAssertEqual(try StateFile.decode(bytes, path: "test"), state, "an explicit 30 stays explicit in a version 6 file")
    }

    func testFilesFromBeforeReadTheOldDefaultAsNone() throws {
        let state = try saved([Link(source: 1, target: 2, distance: 30), Link(source: 2, target: 3, distance: 45)])
        for version in 3...5 {
            let old = String(decoding: StateFile.bytes(of: state), as: UTF8.self)
                .replacingOccurrences(of: #""version":6"#, with: #""version":\#(version)"#)
            let loaded = try StateFile.decode(Array(old.utf8), path: "old")
            XCTAssertEqual(loaded.layout.links.map(\.distance), [nil, 45], "version \(version)")
        }
        // A version 5 file's link without a distance (no server wrote one so) reads as one
        // following the room's length, as a parameter a file lacks takes its default.
        let broken = String(decoding: StateFile.bytes(of: try saved([Link(source: 1, target: 2)])), as: UTF8.self)
            .replacingOccurrences(of: #""version":6"#, with: #""version":5"#)
        XCTAssertEqual(try StateFile.decode(Array(broken.utf8), path: "old").layout.links.map(\.distance), [nil])
    }

    func testAFileOfALaterVersionIsRefused() {
        let later = String(decoding: StateFile.bytes(of: try! saved([])), as: UTF8.self)
            .replacingOccurrences(of: #""version":6"#, with: #""version":7"#)
        XCTAssertThrowsError(try StateFile.decode(Array(later.utf8), path: "new")) {
            XCTAssertTrue("\($0)".contains("reads versions 1 to 6"), "\($0)")
        }
    }
}
