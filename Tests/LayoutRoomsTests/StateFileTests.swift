import ForceLayout
import Foundation
import XCTest
@testable import LayoutCore

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

    func testRoundTripKeepsCellsPinsParametersNextIDAndReservation() throws {
        let simulation = Simulation(seed: 7)
        simulation.parameters.charge = 14
        simulation.add(count: 5)
        _ = try simulation.remove(ids: [5])
        try simulation.pin(2, x: 50, y: -60)
        simulation.step()
        let state = SavedState(layout: simulation.snapshot(), reservation: 1030)
        try StateFile.save(state, to: path())
        let loaded = try XCTUnwrap(StateFile.load(from: path()))
        XCTAssertEqual(loaded, state)
        XCTAssertEqual(loaded.layout.nextID, 6)
        XCTAssertEqual(loaded.reservation, 1030)
        XCTAssertEqual(loaded.layout.cells.first { $0.id == 2 }?.pinned, true)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path()))) as? [String: Any])
        XCTAssertEqual(document["version"] as? Int, 6)
        XCTAssertEqual(document["reservation"] as? Int, 1030)
        // No temporary file is left beside it.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["layout.json"])
    }

    func testSaveCreatesMissingFolders() throws {
        let nested = directory.appendingPathComponent("a/b/state.json").path
        try StateFile.save(SavedState(layout: Simulation().snapshot(), reservation: 1), to: nested)
        XCTAssertNotNil(try StateFile.load(from: nested))
    }

    func testUnusableFilesAreRefusedAndLeftUntouched() throws {
        let valid = try String(decoding: JSONEncoder().encode(["format": "forcelayout-state"]), as: UTF8.self)
        let cases = [
            "not json",
            "{}",
            valid,
            #"{"format":"other","version":1,"layout":{"parameters":{},"nextID":1,"cells":[]}}"#,
            #"{"format":"forcelayout-state","version":7,"layout":{"parameters":{},"nextID":1,"cells":[]},"reservation":1}"#,
            #"{"format":"forcelayout-state","version":2,"layout":{"parameters":{},"nextID":1,"cells":[]}}"#,
            #"{"format":"forcelayout-state","version":2,"layout":{"parameters":{},"nextID":1,"cells":[]},"reservation":0}"#,
            #"{"format":"forcelayout-state","version":2,"layout":{"parameters":{},"nextID":1,"cells":[]},"reservation":9007199254740993}"#,
            #"{"format":"forcelayout-state","version":2,"layout":{"parameters":{},"nextID":9223372036854775807,"cells":[]},"reservation":1}"#,
            #"{"format":"forcelayout-state","version":2,"layout":{"parameters":{},"nextID":1,"cells":[]},"reservation":"5"}"#,
            #"{"format":"forcelayout-state","version":1,"layout":{"parameters":{"charge":5000},"nextID":1,"cells":[]}}"#,
            #"{"format":"forcelayout-state","version":1,"layout":{"parameters":{},"nextID":1,"cells":[{"id":3,"x":0,"y":0,"pinned":false}]}}"#,
            #"{"format":"forcelayout-state","version":4,"layout":{"parameters":{"model":"spiral"},"nextID":1,"cells":[]},"reservation":1}"#,
            #"{"format":"forcelayout-state","version":4,"layout":{"parameters":{"model":2},"nextID":1,"cells":[]},"reservation":1}"#,
            #"{"format":"forcelayout-state","version":4,"layout":{"parameters":{"edgeLength":0},"nextID":1,"cells":[]},"reservation":1}"#,
        ]
        for content in cases {
            try content.write(toFile: path(), atomically: false, encoding: .utf8)
            XCTAssertThrowsError(try StateFile.load(from: path()), content) { error in
                XCTAssertTrue("\(error)".contains("state file"), "\(error)")
            }
            XCTAssertEqual(try String(contentsOfFile: path(), encoding: .utf8), content)
        }
    }

    /// A choice is read and written by name; one that names no option, or is not a string, is
    /// refused with the reason, as a number out of range is.
    func testChoiceParametersRoundTripAndBadOnesAreRefusedWithTheReason() throws {
        for name in ["auto", "cells", "graph"] {
            var parameters = Parameters.defaults
            parameters.model = name
            parameters.edgeLength = 87.5
            let state = SavedState(layout: LayoutSnapshot(parameters: parameters, nextID: 1, cells: []), reservation: 1)
            try StateFile.save(state, to: path())
            XCTAssertTrue(try String(contentsOfFile: path(), encoding: .utf8).contains(#""edgeLength":87.5,"linkStrength":1,"model":"\#(name)""#))
            XCTAssertEqual(try StateFile.load(from: path()), state)
        }
        let refused = [
            (#""spiral""#, #"state file \#(path()): model "spiral" is not one of "auto", "cells", "graph""#),
            ("2", "state file \(path()) is not a forcelayout state file (wrong type at layout.parameters.model)"),
        ]
        for (value, why) in refused {
            let content = #"{"format":"forcelayout-state","version":4,"layout":{"parameters":{"model":\#(value)},"nextID":1,"cells":[]},"reservation":1}"#
            try content.write(toFile: path(), atomically: false, encoding: .utf8)
            XCTAssertThrowsError(try StateFile.load(from: path())) { error in
                XCTAssertTrue("\(error)".hasPrefix(why), "\(error)")
            }
        }
    }

    func testEveryPositionAndFlagRoundTripsExactly() throws {
        let cells = [CellRecord(id: 1, x: 0.1 + 0.2, y: -0.0, pinned: true),
                     CellRecord(id: 7, x: 1e-7, y: -3.25e20, pinned: false),
                     CellRecord(id: 9_007_199_254_740_000, x: 123456.789, y: .ulpOfOne, pinned: false)]
        var parameters = Parameters.defaults
        parameters.theta = 0
        parameters.paused = true
        let state = SavedState(layout: LayoutSnapshot(parameters: parameters, nextID: 9_007_199_254_740_001, cells: cells),
                               reservation: 9_007_199_254_740_100, settled: true)
        try StateFile.save(state, to: path())
        XCTAssertEqual(try StateFile.load(from: path()), state)
    }

    /// A state file as version 1 of the server wrote it (no reservation), byte for byte.
    private let versionOne = #"{"format":"forcelayout-state","layout":{"cells":[{"id":2,"pinned":true,"x":50,"y":-60},{"id":4,"pinned":false,"x":-3.25,"y":7}],"nextID":6,"parameters":{"cellSize":20,"charge":14,"collide":false,"paused":false,"stiffness":0.02,"theta":0.9,"threshold":0.3,"tickRate":20}},"version":1}"#

    func testVersionOneFilesLoadWithTheirNextIDAsTheReservation() throws {
        try versionOne.write(toFile: path(), atomically: false, encoding: .utf8)
        let loaded = try XCTUnwrap(StateFile.load(from: path()))
        XCTAssertEqual(loaded.layout.nextID, 6)
        XCTAssertEqual(loaded.reservation, 6)
        XCTAssertEqual(loaded.layout.cells, [CellRecord(id: 2, x: 50, y: -60, pinned: true),
                                             CellRecord(id: 4, x: -3.25, y: 7, pinned: false)])
        XCTAssertEqual(loaded.layout.parameters.charge, 14)
        // Parameters added since (the model, its edge length) take their defaults.
        XCTAssertEqual(loaded.layout.parameters.model, Parameters.defaults.model)
        XCTAssertEqual(loaded.layout.parameters.edgeLength, Parameters.defaults.edgeLength)
        XCTAssertEqual(IDReservation(nextID: loaded.layout.nextID, reservation: loaded.reservation).firstID, 6)
        // Loading leaves it as it was; the next save writes version 6.
        XCTAssertEqual(try String(contentsOfFile: path(), encoding: .utf8), versionOne)
        try StateFile.save(loaded, to: path())
        XCTAssertEqual(try StateFile.load(from: path()), loaded)
        XCTAssertTrue(try String(contentsOfFile: path(), encoding: .utf8).contains(#""version":6"#))
    }
}
