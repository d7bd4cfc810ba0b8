import ForceLayout
import Foundation
import XCTest
@testable import LayoutCore

/// Who added which cells survives a save: the runs of live cells are written (`owners`), read
/// back, and given to the restored layout; files without them (every earlier one) load with no
/// owners; owners that no server wrote are refused with the file.
final class StateFileOwnersTests: XCTestCase {
    private func layout() -> (LayoutState, Simulation) {
        let simulation = Simulation(seed: 3)
        var state = LayoutState(simulation: simulation, limits: Limits())
        _ = try? state.apply(.add(count: 3, spawn: .random), from: "c1")
        _ = try? state.apply(.add(count: 2, spawn: .random), from: "c2@b")
        _ = try? state.apply(.add(count: 2, spawn: .random), from: "c1")
        _ = try? state.apply(.remove(ids: [2, 4, 5]), from: "c2@b")
        return (state, simulation)
    }

    func testTheRunsOfLiveCellsAreSavedAndRestored() throws {
        let (state, simulation) = layout()
        let saved = state.saved(reservation: 1030, settled: false)
        // Cells 4 and 5 are gone: c2@b owns nothing now, and c1's runs merge around them.
        XCTAssertEqual(saved.owners, [Ownership.Run(client: "c1", first: 1, last: 7)])
        let bytes = StateFile.bytes(of: saved)
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains(#""owners":[["c1",1,7]],"reservation":1030"#))
        let loaded = try StateFile.decode(bytes, path: "room.json")
        XCTAssertEqual(loaded, saved)
        // The restored layout's first frame names the same owners.
        var restored = LayoutState(simulation: try Simulation(snapshot: loaded.layout), limits: Limits(),
                                   ownership: Ownership(runs: loaded.owners))
        XCTAssertEqual(restored.ownership.compact(to: simulation.ids), [Ownership.Run(client: "c1", first: 1, last: 7)])
        // New cells of a new client go on after them.
        _ = try restored.apply(.add(count: 1, spawn: .random), from: "c9")
        XCTAssertEqual(restored.ownership.compact(to: restored.simulation.ids),
                       [Ownership.Run(client: "c1", first: 1, last: 7), Ownership.Run(client: "c9", first: 8, last: 8)])
    }

    func testSeveralOwnersRoundTrip() throws {
        let simulation = Simulation(seed: 3)
        var state = LayoutState(simulation: simulation, limits: Limits())
        for client in ["c1", "c2@b", "c1", "c3.x"] { _ = try state.apply(.add(count: 2, spawn: .random), from: client) }
        let saved = state.saved(reservation: 9, settled: true)
        XCTAssertEqual(saved.owners.map(\.client), ["c1", "c2@b", "c1", "c3.x"])
        XCTAssertEqual(try StateFile.decode(StateFile.bytes(of: saved), path: "room.json").owners, saved.owners)
    }

    /// A room nobody added to (or whose cells were all restored ownerless) writes no `owners`,
    /// and a file without them, of this version or an earlier one, loads with none.
    func testFilesWithoutOwnersLoadWithNone() throws {
        let simulation = Simulation(seed: 3)
        simulation.add(count: 2)
        let saved = SavedState(layout: simulation.snapshot(), reservation: 3)
        let bytes = StateFile.bytes(of: saved)
        XCTAssertFalse(String(decoding: bytes, as: UTF8.self).contains("owners"))
        XCTAssertEqual(try StateFile.decode(bytes, path: "room.json").owners, [])
        for version in 1...5 {
            let text = #"{"format":"forcelayout-state","version":\#(version),"layout":{"parameters":{},"nextID":3,"cells":[{"id":1,"x":0,"y":0,"pinned":false}]},"reservation":3}"#
            XCTAssertEqual(try StateFile.decode(Array(text.utf8), path: "old.json").owners, [], "version \(version)")
        }
    }

    func testOwnersNoServerWroteAreRefused() {
        let head = #"{"format":"forcelayout-state","version":5,"layout":{"parameters":{},"nextID":9,"cells":[]},"reservation":9,"owners":"#
        for owners in [#""c1""#, #"[["c1",1]]"#, #"[["c1",1,"2"]]"#, #"[[1,1,2]]"#, #"[["c 1",1,2]]"#, #"[["",1,2]]"#,
                       #"[["c1",3,2]]"#, #"[["c1",0,2]]"#, #"[["c1",1,4],["c2",4,5]]"#, #"[["c1",5,6],["c2",1,2]]"#,
                       #"[["c1",1,9007199254740993]]"#] {
            XCTAssertThrowsError(try StateFile.decode(Array((head + owners + "}").utf8), path: "bad.json"), owners) { error in
                XCTAssertTrue("\(error)".contains("state file bad.json"), "\(error)")
            }
        }
    }
}
