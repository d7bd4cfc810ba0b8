import ForceLayout
import Foundation
import Logging
import XCTest
@testable import LayoutCore
@testable import LayoutRooms

/// A room's file is replaced only when it is the version this room last wrote or read, and a
/// layout with cells goes aside (`.forgotten/`) rather than being lost.
final class StateFileDestinationTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("destination-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private var path: String { directory.appendingPathComponent("room.json").path }
    private var aside: String { directory.appendingPathComponent(".forgotten").path }

    private func destination(known: FileStamp? = nil, maxID: CellID? = nil) -> StateFileDestination {
        StateFileDestination(path: path, aside: aside, known: known, maxID: maxID, logger: Logger(label: "test"))
    }

    private func state(_ ids: [CellID]) -> SavedState {
        let layout = LayoutSnapshot(parameters: .defaults, nextID: (ids.max() ?? 0) + 1,
                                    cells: ids.map { CellRecord(id: $0, x: Double($0), y: 0, pinned: false) })
        return SavedState(layout: layout, reservation: (ids.max() ?? 0) + 1)
    }

    private func cellsOnDisk(_ file: String) throws -> [CellID]? {
        try StateFile.load(from: file)?.layout.cells.map(\.id)
    }

    private func kept() throws -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: aside).sorted()) ?? []
    }

    func testAFileSomeoneElsePutThereIsNeverOverwritten() throws {
        let room = destination()
        XCTAssertTrue(room.write(state([1, 2])))
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertFalse(room.write(state([1, 2, 3])))
        room.remove()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "someone else's", "neither replaced nor moved")

        let fresh = destination()
        XCTAssertFalse(fresh.write(state([1])), "a new room never replaces a file that is there")
        try FileManager.default.removeItem(atPath: path)
        XCTAssertTrue(fresh.write(state([1])), "no file: nothing is overwritten")
        XCTAssertEqual(try cellsOnDisk(path), [1])
    }

    func testTheFileARoomWasLoadedFromIsItsOwn() throws {
        try StateFile.save(state([4, 5]), to: path)
        let room = destination(known: FileStamp(path: path), maxID: 5)
        XCTAssertTrue(room.write(state([4, 5, 6])))
        XCTAssertEqual(try kept(), [], "its cells are kept: nothing set aside")
    }

    func testALayoutKeepingNoneOfTheFilesCellsSetsTheFileAsideFirst() throws {
        let room = destination()
        XCTAssertTrue(room.write(state([1, 2, 3])))
        XCTAssertTrue(room.write(state([7])), "cleared, and a cell added before the save")
        XCTAssertEqual(try cellsOnDisk(path), [7])
        let first = try kept()
        XCTAssertEqual(first.count, 1)
        XCTAssertEqual(try cellsOnDisk("\(aside)/\(first[0])"), [1, 2, 3])

        XCTAssertTrue(room.write(state([])))
        XCTAssertEqual(try kept().count, 2, "emptied: the layout of [7] goes aside too")
        room.remove()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "an empty layout's file is deleted")
        XCTAssertEqual(try kept().count, 2)
    }

    func testAForgottenRoomsFileWithCellsGoesAside() throws {
        let room = destination()
        XCTAssertTrue(room.write(state([1, 2])))
        room.remove()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        let aside = try kept()
        XCTAssertEqual(aside.count, 1)
        XCTAssertNotNil(ForgottenFiles.movedAt(aside[0]))
    }
}
