import ForceLayout
import Foundation
import XCTest
@testable import LayoutServer

final class StateFileTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("statefile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String = "layout.json") -> String { directory.appendingPathComponent(name).path }

    func testMissingFileMeansNoState() throws {
        XCTAssertNil(try StateFile.load(from: path()))
    }

    func testRoundTripKeepsCellsPinsParametersAndNextID() throws {
        let simulation = Simulation(seed: 7)
        simulation.parameters.charge = 14
        simulation.add(count: 5)
        _ = try simulation.remove(ids: [5])
        try simulation.pin(2, x: 50, y: -60)
        simulation.step()
        let snapshot = simulation.snapshot()
        try StateFile.save(snapshot, to: path())
        let loaded = try XCTUnwrap(StateFile.load(from: path()))
        XCTAssertEqual(loaded, snapshot)
        XCTAssertEqual(loaded.nextID, 6)
        XCTAssertEqual(loaded.cells.first { $0.id == 2 }?.pinned, true)
        // No temporary file is left beside it.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["layout.json"])
    }

    func testSaveCreatesMissingFolders() throws {
        let nested = directory.appendingPathComponent("a/b/state.json").path
        try StateFile.save(Simulation().snapshot(), to: nested)
        XCTAssertNotNil(try StateFile.load(from: nested))
    }

    func testUnusableFilesAreRefusedAndLeftUntouched() throws {
        let valid = try String(decoding: JSONEncoder().encode(["format": "forcelayout-state"]), as: UTF8.self)
        let cases = [
            "not json",
            "{}",
            valid,
            #"{"format":"other","version":1,"layout":{"parameters":{},"nextID":1,"cells":[]}}"#,
            #"{"format":"forcelayout-state","version":2,"layout":{"parameters":{},"nextID":1,"cells":[]}}"#,
            #"{"format":"forcelayout-state","version":1,"layout":{"parameters":{"charge":5000},"nextID":1,"cells":[]}}"#,
            #"{"format":"forcelayout-state","version":1,"layout":{"parameters":{},"nextID":1,"cells":[{"id":3,"x":0,"y":0,"pinned":false}]}}"#,
        ]
        for content in cases {
            try content.write(toFile: path(), atomically: false, encoding: .utf8)
            XCTAssertThrowsError(try StateFile.load(from: path()), content) { error in
                XCTAssertTrue("\(error)".contains("state file"), "\(error)")
            }
            XCTAssertEqual(try String(contentsOfFile: path(), encoding: .utf8), content)
        }
    }
}
