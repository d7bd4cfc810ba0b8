import ForceLayout
import XCTest
@testable import LayoutCore

/// Cells' data and links in the layout state, the decoder, the `data` message and state files.
final class CellDataTests: XCTestCase {
    private func state(maxLinks: Int = 10) -> LayoutState {
        var limits = Limits()
        limits.maxLinks = maxLinks
        var state = LayoutState(simulation: Simulation(seed: 3), limits: limits)
        _ = state.takeChanges()
        return state
    }

    private func decode(_ text: String) throws -> LayoutCommand {
        switch MessageDecoder(limits: Limits()).decode(Array(text.utf8)) {
        case .success(let request):
            guard case .layout(let command) = request.message else { throw ProtocolError(.badRequest, "not a command") }
            return command
        case .failure(let error): throw error
        }
    }

    func testAddUpdateLinkAndUnlinkSayWhatTheyDid() throws {
        var state = state()
        let add = try decode(##"{"type":"add","cells":[{"label":"Valjean","color":"#AABBCC","radius":12},{"group":"2"},{}]}"##)
        let added = try state.apply(add, from: "c1")
        XCTAssertEqual(added.map(\.kind), [.added, .woke])
        XCTAssertEqual(added[0].detail, .added([1, 2, 3], data: [
            CellRecordData(id: 1, data: CellData(label: "Valjean", color: "#aabbcc"), radius: 12),
            CellRecordData(id: 2, data: CellData(group: "2"), radius: nil)]))
        XCTAssertEqual(state.simulation.radius(of: 1), 12)

        let linked = try state.apply(try decode(##"{"type":"link","links":[{"source":1,"target":2},{"source":3,"target":2,"strength":0.25}]}"##), from: "c2")
        XCTAssertEqual(linked.map(\.kind), [.linked])
        XCTAssertEqual(state.simulation.links.map(\.strength), [nil, 0.25])

        let version = state.dataVersion
        let updated = try state.apply(try decode(##"{"type":"update","cells":[{"id":1,"label":null,"radius":null},{"id":3,"label":"new","x":5,"y":6}]}"##), from: "c2")
        var moved = CellRecordData(id: 3, data: CellData(label: "new"), radius: nil)
        moved.place = .init(x: 5, y: 6)
        XCTAssertEqual(updated.first?.detail, .updated([
            CellRecordData(id: 1, data: CellData(color: "#aabbcc"), radius: nil), moved]), "the cell it moved with its place")
        XCTAssertGreaterThan(state.dataVersion, version)
        XCTAssertEqual(state.simulation.position(of: 3)?.x, 5)
        XCTAssertNil(state.simulation.radius(of: 1))

        _ = try state.apply(try decode(##"{"type":"unlink","links":[{"source":2,"target":1}]}"##), from: "c1")
        XCTAssertEqual(state.simulation.links.map(\.source), [3])
        _ = try state.apply(.remove(ids: [2]), from: "c1")
        XCTAssertEqual(state.simulation.links, [])
        XCTAssertEqual(state.records.map(\.id), [1, 3])
    }

    func testAnUpdateCarriesOnlyTheCellsItChangesAndNothingIsNoEvent() throws {
        var state = state()
        _ = try state.apply(try decode(##"{"type":"add","cells":[{"label":"a","group":"g"},{"label":"b"},{}]}"##), from: "c1")
        let version = state.dataVersion
        let same = ##"{"type":"update","cells":[{"id":1,"label":"a","group":"g"},{"id":2,"label":"b","color":null},{"id":3,"radius":null}]}"##
        XCTAssertEqual(try state.apply(try decode(same), from: "c2"), [], "an update that changes nothing is no event")
        XCTAssertEqual(state.dataVersion, version)
        let one = ##"{"type":"update","cells":[{"id":1,"label":"a"},{"id":2,"label":"c"},{"id":2,"label":"c"}]}"##
        XCTAssertEqual(try state.apply(try decode(one), from: "c2").first?.detail,
                       .updated([CellRecordData(id: 2, data: CellData(label: "c"), radius: nil)]))
        XCTAssertGreaterThan(state.dataVersion, version)
    }

    func testALabelChangeDoesNotWakeASettledLayoutButARadiusDoes() throws {
        var state = state()
        _ = try state.apply(.addCells([NewCell(), NewCell()], spawn: .random), from: "c1")
        for _ in 0..<5000 where !state.settled { _ = state.step() }
        XCTAssertTrue(state.settled)
        var edit = CellEdit(id: 1)
        edit.label = .set("quiet")
        XCTAssertEqual(try state.apply(.update([edit]), from: "c1").map(\.kind), [.updated])
        XCTAssertTrue(state.settled)
        edit.radius = .set(40)
        XCTAssertEqual(try state.apply(.update([edit]), from: "c1").map(\.kind), [.updated, .woke])
    }

    func testRefusedCommandsChangeNothing() throws {
        var state = state(maxLinks: 1)
        _ = try state.apply(.addCells([NewCell(), NewCell(), NewCell()], spawn: .random), from: "c1")
        let version = state.dataVersion
        var edit = CellEdit(id: 1)
        edit.label = .set("a")
        XCTAssertThrowsError(try state.apply(.update([edit, CellEdit(id: 9)]), from: "c1")) {
            XCTAssertEqual(($0 as? ProtocolError)?.message, "unknown cell id 9")
        }
        XCTAssertNil(state.catalog.data[1])
        XCTAssertThrowsError(try state.apply(.link([LinkRecord(Link(source: 1, target: 2)), LinkRecord(Link(source: 2, target: 3))]), from: "c1")) {
            XCTAssertEqual(($0 as? ProtocolError)?.code, .limit)
        }
        XCTAssertThrowsError(try state.apply(.link([LinkRecord(Link(source: 1, target: 2)), LinkRecord(Link(source: 2, target: 1))]), from: "c1"))
        XCTAssertEqual(state.simulation.links, [])
        XCTAssertEqual(state.dataVersion, version)
    }

    func testTheDataMessageIsColumnsWithNullsAndLeavesOutEmptyColumns() {
        let bytes = DataMessage.encode(
            records: [CellRecordData(id: 2, data: CellData(label: "a\"b"), radius: nil),
                      CellRecordData(id: 5, data: CellData(), radius: 7.5)],
            links: [Link(source: 2, target: 5), Link(source: 5, target: 9, distance: 40, strength: 0.5)])
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self),
                       ##"{"type":"data","cells":{"id":[2,5],"label":["a\"b",null],"radius":[null,7.5]},"links":{"source":[2,5],"target":[5,9],"distance":[null,40],"strength":[null,0.5]}}"##)
    }

    func testEveryNewRequestIsWrittenAsItIsRead() throws {
        for text in [##"{"type":"add","cells":[{"label":"x","radius":3,"color":"#010203","group":"g","x":1,"y":-2},{}],"spawn":"center"}"##,
                     ##"{"type":"update","cells":[{"id":4,"label":null,"color":"#0a0b0c","radius":9,"x":0,"y":0}]}"##,
                     ##"{"type":"link","links":[{"source":1,"target":2,"distance":30},{"source":1,"target":3,"distance":5,"strength":1}]}"##,
                     ##"{"type":"unlink","links":[{"source":1,"target":2}]}"##] {
            let command = try decode(text)
            XCTAssertEqual(try decode(String(decoding: ClientRequest(.layout(command)).encoded, as: UTF8.self)), command, text)
        }
    }

    func testStateFilesKeepDataRadiiAndLinksAndRefuseBadData() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("celldata-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("room.json").path
        var state = state()
        _ = try state.apply(.addCells([NewCell(seed: CellSeed(radius: 4), data: CellData(label: "é ✓", group: "g")), NewCell()],
                                      spawn: .random), from: "c1")
        _ = try state.apply(.link([LinkRecord(Link(source: 1, target: 2, distance: 12, strength: 0.5))]), from: "c1")
        let saved = state.saved(reservation: 10, settled: false)
        try StateFile.save(saved, to: path)
        XCTAssertEqual(try StateFile.load(from: path), saved)

        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: ##""label":"é ✓""##, with: ##""label":"\u0007""##)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try StateFile.load(from: path)) { XCTAssertTrue("\($0)".contains("control"), "\($0)") }
    }
}
