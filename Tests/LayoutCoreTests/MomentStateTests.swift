import EventBus
import ForceLayout
import XCTest
@testable import LayoutCore

/// A moment rebuilt from a checkpoint and the events after it: each kind of event, the
/// `dataSeq` a client's `have` is checked against, and a whole session of a real layout
/// rebuilt from its history and compared with the layout itself.
final class MomentStateTests: XCTestCase {
    private typealias F = HistoryFixtures

    private func attrs(_ text: String) -> Attrs { Attrs(bytes: Array(text.utf8)) }

    private func moment(cells: Int = 3) -> MomentState {
        MomentState(checkpoint: F.checkpoint(F.state(cells: cells), at: 0))
    }

    private func ends(_ state: MomentState) -> [[CellID]] { state.links.keys.map { [$0.source, $0.target] } }

    func testACheckpointGivesTheCellsTheirDataLinksPinsAndOwners() throws {
        var state = F.state(cells: 0)
        _ = try state.apply(.add(count: 2, spawn: .random), from: "c1")
        _ = try state.apply(.addCells([NewCell(seed: CellSeed(radius: 9), data: CellData(label: "Ana", color: "#112233"))],
                                      spawn: .random), from: "c2")
        _ = try state.apply(.link([LinkRecord(Link(source: 3, target: 1, distance: 40), attrs: attrs(#"{"w":2}"#))]), from: "c1")
        _ = try state.apply(.pin(id: 2, x: 7, y: -7), from: "c1")
        let moment = MomentState(checkpoint: F.checkpoint(state, at: 0, seq: 9))
        XCTAssertEqual(Array(moment.cells.keys), [1, 2, 3])
        XCTAssertEqual(moment.cells[3], CellRecordData(id: 3, data: CellData(label: "Ana", color: "#112233"), radius: 9))
        XCTAssertEqual(moment.cells[1], CellRecordData(id: 1, data: CellData(), radius: nil))
        XCTAssertEqual(ends(moment), [[1, 3]])
        XCTAssertEqual(moment.links[LinkEnds(source: 1, target: 3)]?.link.distance, 40)
        XCTAssertEqual(moment.links[LinkEnds(source: 1, target: 3)]?.attrs, attrs(#"{"w":2}"#))
        XCTAssertEqual(moment.pins[2]?.x, 7)
        XCTAssertEqual(moment.owners, [1: "c1", 2: "c1", 3: "c2"])
        XCTAssertEqual(moment.nextID, 4)
        XCTAssertEqual([moment.seq, moment.dataSeq], [9, 9])
        XCTAssertFalse(moment.settled)
    }

    func testAddsByCountAndWithCellsTheirOwnersAndTheNextID() {
        var state = moment()
        state.apply(F.envelope(1, .added, .cells([4, 5]), by: "c7", at: 1))
        XCTAssertEqual(Array(state.cells.keys), [1, 2, 3, 4, 5])
        XCTAssertEqual(state.cells[4], CellRecordData(id: 4, data: CellData(), radius: nil))
        XCTAssertEqual(state.owners[5], "c7")
        let ana = CellRecordData(id: 7, data: CellData(label: "Ana", group: "g"), radius: 12)
        state.apply(F.envelope(2, .added, .added([6, 7], data: [ana]), by: "c8", at: 2))
        XCTAssertEqual(state.cells[7], ana, "a cell's data and radius as the event gave them")
        XCTAssertEqual(state.cells[6], CellRecordData(id: 6, data: CellData(), radius: nil), "a cell without data")
        XCTAssertEqual(state.owners[6], "c8")
        XCTAssertEqual(state.nextID, 8)
        XCTAssertEqual(Array(state.cells.keys), Array(1...7), "ascending")
        XCTAssertEqual([state.seq, state.dataSeq], [2, 2])
    }

    func testRemovalsTakeTheCellsTheirLinksPinsAndOwners() {
        for kind in [EventKind.removed, .cleared, .deleted] {
            var state = moment(cells: 4)
            state.apply(F.envelope(1, .linked, .linked([LinkRecord(Link(source: 1, target: 2)), LinkRecord(Link(source: 4, target: 3)),
                                                        LinkRecord(Link(source: 2, target: 3))]), at: 1))
            state.apply(F.envelope(2, .pinned, .pinned(id: 2, x: 1, y: 1), at: 2))
            state.apply(F.envelope(3, .added, .cells([5]), by: "c3", at: 3))
            state.apply(F.envelope(4, kind, .cells([2, 5]), at: 4))
            XCTAssertEqual(Array(state.cells.keys), [1, 3, 4], "\(kind)")
            XCTAssertEqual(ends(state), [[3, 4]], "\(kind): the links of the cells that went, gone")
            XCTAssertNil(state.pins[2])
            XCTAssertNil(state.owners[5])
            XCTAssertEqual(state.nextID, 6, "ids are never handed out again")
            XCTAssertEqual(state.dataSeq, 4)
        }
    }

    func testManyCellsGoInOnePassAndTheOthersKeepTheirOrder() {
        var state = moment(cells: 60)
        let chain = (1..<60).map { LinkRecord(Link(source: $0, target: $0 + 1)) }
        state.apply(F.envelope(1, .linked, .linked(chain), at: 1))
        state.apply(F.envelope(2, .pinned, .pinned(id: 40, x: 0, y: 0), at: 2))
        let doomed = Array(stride(from: 2, through: 60, by: 2))  // 30 cells: more than a few
        state.apply(F.envelope(3, .removed, .cells(doomed), at: 3))
        XCTAssertEqual(Array(state.cells.keys), Array(stride(from: 1, through: 59, by: 2)))
        XCTAssertEqual(ends(state), [], "every link of the chain touched a cell that went")
        XCTAssertNil(state.pins[40])
        state.apply(F.envelope(4, .linked, .linked((0..<15).map { LinkRecord(Link(source: 4 * $0 + 1, target: 4 * $0 + 3)) }), at: 4))
        state.apply(F.envelope(5, .removed, .cells([1, 3]), at: 5))
        XCTAssertEqual(ends(state), (1..<15).map { [4 * $0 + 1, 4 * $0 + 3] }, "a few go one by one, the rest in order")
        XCTAssertEqual(state.dataSeq, 5)
    }

    func testAFewCellsRemovedAreSkippedUntilAnEighthAreAndTheyGoAtOnce() {
        var state = moment(cells: 600)
        let chain = (1..<600).map { LinkRecord(Link(source: $0, target: $0 + 1)) }
        state.apply(F.envelope(1, .linked, .linked(chain), at: 1))
        state.apply(F.envelope(2, .removed, .cells([5, 300]), at: 2))
        state.tidy()
        var ids: [CellID] = []
        state.forEachCell { id, _ in ids.append(id) }
        var links: [[CellID]] = []
        state.forEachLink { ends, _ in links.append([ends.source, ends.target]) }
        XCTAssertEqual(ids, (1...600).filter { $0 != 5 && $0 != 300 }, "skipped, not taken out yet")
        XCTAssertEqual(ids, Array(state.cells.keys), "as a read of `cells` has them")
        XCTAssertEqual(links, ends(state))
        XCTAssertEqual(links.count, 599 - 4)
        XCTAssertEqual(state.placed(keyframe: nil, later: []).map(\.id), ids)
        // 74 more: 76 of 600, an eighth: taken out at once, and nothing changes for a reader
        state.apply(F.envelope(3, .removed, .cells(Array(400..<474)), at: 3))
        state.tidy()
        var after: [CellID] = []
        state.forEachCell { id, _ in after.append(id) }
        XCTAssertEqual(after, (1...600).filter { $0 != 5 && $0 != 300 && !(400..<474).contains($0) })
        XCTAssertEqual(Array(state.cells.keys), after)
        XCTAssertEqual(ends(state).count, 599 - 4 - 75)
    }

    func testAClearEmptiesTheRoomAtOnceAndAReimportFillsItAgain() {
        var state = moment(cells: 6)
        state.apply(F.envelope(1, .linked, .linked((1..<6).map { LinkRecord(Link(source: $0, target: $0 + 1)) }), at: 1))
        state.apply(F.envelope(2, .pinned, .pinned(id: 3, x: 1, y: 1), at: 2))
        state.apply(F.envelope(3, .removed, .cells([2]), at: 3))  // one skipped, not taken out yet
        state.apply(F.envelope(4, .cleared, .cells([1, 3, 4, 5, 6]), at: 4))
        XCTAssertTrue(state.cells.isEmpty)
        XCTAssertTrue(state.links.isEmpty)
        XCTAssertTrue(state.pins.isEmpty)
        XCTAssertTrue(state.owners.isEmpty)
        var read = 0
        state.forEachCell { _, _ in read += 1 }
        state.forEachLink { _, _ in read += 1 }
        XCTAssertEqual(read, 0)
        // the graph again, its data beside its ids, then a cell of it removed by itself
        let records = (7...10).map { CellRecordData(id: $0, data: CellData(label: "n\($0)"), radius: nil) }
        state.apply(F.envelope(5, .added, .added([7, 8, 9, 10], data: records), by: "c2", at: 5))
        state.apply(F.envelope(6, .linked, .linked([LinkRecord(Link(source: 7, target: 8)), LinkRecord(Link(source: 9, target: 10))]), at: 6))
        XCTAssertEqual(Array(state.cells.values), records)
        XCTAssertEqual(ends(state), [[7, 8], [9, 10]])
        XCTAssertEqual(state.owners, [7: "c2", 8: "c2", 9: "c2", 10: "c2"])
        XCTAssertEqual(state.nextID, 11)
        state.apply(F.envelope(7, .removed, .cells([8]), at: 7))
        XCTAssertEqual(Array(state.cells.keys), [7, 9, 10], "all but a cell: one by one")
        XCTAssertEqual(ends(state), [[9, 10]])
        XCTAssertEqual(state.dataSeq, 7)
        state.apply(F.envelope(8, .removed, .cells([7, 7, 9]), at: 8))
        XCTAssertEqual(Array(state.cells.keys), [10], "as many ids as cells, but not every cell: not a clear")
    }

    func testTheDataColumnsAreTheRoomsCellsAndLinksWithoutTheRemovedSkipped() {
        var state = moment(cells: 0)
        let records = (1...600).map { CellRecordData(id: $0, data: CellData(label: $0 % 3 == 0 ? nil : "n\($0)", group: "g\($0 % 4)"), radius: $0 % 5 == 0 ? 7 : nil) }
        state.apply(F.envelope(1, .added, .added(records.map(\.id), data: records), by: "c1", at: 1))
        state.apply(F.envelope(2, .linked, .linked((1..<600).map {
            LinkRecord(Link(source: $0, target: $0 + 1, distance: $0 % 7 == 0 ? 12 : nil), attrs: $0 % 9 == 0 ? attrs(#"{"w":\#($0)}"#) : nil)
        }), at: 2))
        func expected(_ state: MomentState) -> [UInt8] {
            var attrs = LinkAttributes()
            for (ends, record) in state.links where record.attrs != nil { attrs[ends.source, ends.target] = record.attrs }
            var writer = JSONWriter()
            writer.raw(",")
            DataMessage.writeColumns(records: Array(state.cells.values), links: state.links.values.map(\.link), linkAttrs: attrs, into: &writer)
            return writer.bytes
        }
        XCTAssertEqual(HistoryMessages.dataColumns(of: state), expected(state))
        state.apply(F.envelope(3, .removed, .cells([5, 300, 301]), at: 3))
        state.tidy()
        XCTAssertEqual(state.cells.count, 597)
        XCTAssertEqual(HistoryMessages.dataColumns(of: state), expected(state), "the removed cells and their links left out")
        XCTAssertFalse(String(decoding: HistoryMessages.dataColumns(of: state), as: UTF8.self).contains("\"n301\""))
    }

    func testACellAnUndoBringsBackHasOnlyTheLinksMadeAgain() {
        var state = moment(cells: 4)
        state.apply(F.envelope(1, .linked, .linked([LinkRecord(Link(source: 1, target: 2)), LinkRecord(Link(source: 2, target: 3)),
                                                    LinkRecord(Link(source: 3, target: 4))]), at: 1))
        state.apply(F.envelope(2, .removed, .cells([2]), at: 2))
        state.apply(F.envelope(3, .added, .cells([2]), at: 3))
        XCTAssertEqual(ends(state), [[3, 4]], "its links went with it")
        XCTAssertEqual(Array(state.cells.keys), [1, 2, 3, 4])
        state.apply(F.envelope(4, .linked, .linked([LinkRecord(Link(source: 2, target: 1))]), at: 4))
        XCTAssertEqual(ends(state), [[3, 4], [1, 2]])
        state.apply(F.envelope(5, .removed, .cells([4]), at: 5))
        XCTAssertEqual(ends(state), [[1, 2]])
    }

    func testUpdatesReplaceACellsDataWholeAndSkipCellsNoLongerThere() {
        var state = moment()
        let record = CellRecordData(id: 2, data: CellData(label: "B", key: .number(2), attrs: attrs(#"{"a":1}"#)), radius: 20)
        state.apply(F.envelope(1, .updated, .updated([record, CellRecordData(id: 99, data: CellData(label: "x"), radius: nil)]), at: 1))
        XCTAssertEqual(state.cells[2], record)
        XCTAssertNil(state.cells[99], "an update does not add a cell")
        XCTAssertEqual(state.dataSeq, 1)
        state.apply(F.envelope(2, .updated, .updated([CellRecordData(id: 2, data: CellData(), radius: nil)]), at: 2))
        XCTAssertEqual(state.cells[2], CellRecordData(id: 2, data: CellData(), radius: nil), "fields reset")
    }

    func testAnUpdateThatMovesAPinnedCellMovesItsPin() {
        var state = moment()
        state.apply(F.envelope(1, .pinned, .pinned(id: 1, x: 5, y: 6), at: 1))
        var pinned = CellRecordData(id: 1, data: CellData(), radius: nil)
        pinned.place = .init(x: 70, y: -8)
        var free = CellRecordData(id: 2, data: CellData(label: "B"), radius: nil)
        free.place = .init(x: 1, y: 2)
        state.apply(F.envelope(2, .updated, .updated([pinned, free]), at: 2))
        XCTAssertEqual(state.pins[1]?.x, 70)
        XCTAssertEqual(state.pins[1]?.y, -8)
        XCTAssertNil(state.pins[2], "an unpinned cell stays unpinned (the next keyframe places it)")
        XCTAssertNil(state.cells[2]?.place, "a place is not the cell's data")
        XCTAssertEqual(state.cells[2]?.data.label, "B")
    }

    func testLinksKeepTheirDistanceStrengthAndAttributesAndUnlinkEitherWayRound() {
        var state = moment()
        let weighted = LinkRecord(Link(source: 3, target: 1, distance: 55, strength: 0.5), attrs: attrs(#"{"w":3}"#))
        state.apply(F.envelope(1, .linked, .linked([weighted, LinkRecord(Link(source: 1, target: 2))]), at: 1))
        XCTAssertEqual(ends(state), [[1, 3], [1, 2]], "in the order they were made, keyed smaller end first")
        XCTAssertEqual(state.links[LinkEnds(source: 1, target: 3)], weighted, "the link as its client gave it")
        state.apply(F.envelope(2, .unlinked, .unlinked([LinkEnds(source: 3, target: 1)]), at: 2))
        XCTAssertEqual(ends(state), [[1, 2]])
        XCTAssertEqual(state.dataSeq, 2)
        let snapshot = state.snapshot(placed: state.placed(keyframe: nil, later: []), floor: 0)
        XCTAssertEqual(snapshot.layout.links, [Link(source: 1, target: 2)])
    }

    func testParametersPinsAndRestChangeNoData() {
        var state = moment()
        var parameters = state.parameters
        parameters.charge = 77
        let kinds: [(EventKind, LayoutEvent.Detail)] = [
            (.params, .params(parameters, changed: ["charge"])),
            (.pinned, .pinned(id: 1, x: 5, y: 6)),
            (.pinned, .pinned(id: 3, x: -1, y: -2)),
            (.pinned, .pinned(id: 42, x: 0, y: 0)),
            (.unpinned, .unpinned(id: 1)),
            (.settled, .none),
            (.joined, .membership(client: "c2", clients: 2)),
            (.access, .access(mode: .view, rotated: [])),
        ]
        for (seq, (kind, detail)) in kinds.enumerated() {
            state.apply(F.envelope(UInt64(seq + 1), kind, detail, at: seq))
        }
        XCTAssertEqual(state.parameters.charge, 77)
        XCTAssertEqual(state.pins.keys.sorted(), [3], "the unknown cell's pin is ignored, the unpinned one gone")
        XCTAssertEqual(state.pins[3]?.y, -2)
        XCTAssertTrue(state.settled)
        XCTAssertEqual(state.seq, UInt64(kinds.count))
        XCTAssertEqual(state.dataSeq, 0, "none of these changes cells, data or links")
        state.apply(F.envelope(20, .woke, at: 20, tick: 31))
        XCTAssertFalse(state.settled)
        XCTAssertEqual(state.tick, 31)
    }

    func testAFailoverKeepsOnlyThePinsAndTheParametersTheStateItWentOnFromHad() {
        var state = moment()
        var charged = state.parameters
        charged.charge = 77
        var before = state.parameters
        before.charge = 12
        state.apply(F.envelope(1, .pinned, .pinned(id: 1, x: 1, y: 1), at: 1))
        state.apply(F.envelope(2, .pinned, .pinned(id: 2, x: 2, y: 2), at: 2))
        state.apply(F.envelope(3, .params, .params(charged, changed: ["charge"]), at: 3))
        state.apply(F.envelope(4, .failover, .failover(node: "b", previous: "a", pinned: [2, 3], parameters: before), by: nil, at: 4))
        XCTAssertEqual(state.pins.keys.sorted(), [2])
        XCTAssertEqual(state.parameters.charge, 12, "the change the state lacked is gone")
        XCTAssertEqual(state.dataSeq, 0)
        // One recorded before failovers carried them leaves the parameters as they were.
        state.apply(F.envelope(5, .failover, .failover(node: "c", previous: "b", pinned: [2], parameters: nil), by: nil, at: 5))
        XCTAssertEqual(state.parameters.charge, 12)
    }

    /// A session on a real layout, filed as the recorder files it, then rebuilt: the moment
    /// is the layout (ids, data, links, parameters, pins, owners; positions as a keyframe
    /// keeps them), and its snapshot is what the layout would save.
    func testASessionRebuiltFromItsHistoryIsTheLayout() throws {
        var state = F.state(cells: 0)
        var log = HistoryLog(bounds: HistoryBounds(bytes: 1 << 30, seconds: 3600))
        var seq: UInt64 = 0
        let start = 1_000_000
        log.start(F.checkpoint(state, at: start))
        func run(_ command: LayoutCommand, by client: String = "c1", at offset: Int) throws {
            try F.apply(command, to: &state, by: client, log: &log, seq: &seq, at: start + offset)
        }
        try run(.add(count: 6, spawn: .random), at: 10)
        try run(.addCells([NewCell(data: CellData(label: "Ana", color: "#aa0000", key: .string("a"))),
                           NewCell(seed: CellSeed(radius: 14), data: CellData(group: "g", attrs: attrs(#"{"club":"x"}"#))),
                           NewCell(seed: CellSeed(radius: 8))], spawn: .random), by: "c2", at: 20)
        var edit = CellEdit(id: 2)
        edit.label = .set("Bo")
        edit.radius = .set(11)
        var reset = CellEdit(id: 7)
        reset.color = .reset
        try run(.update([edit, reset]), at: 30)
        try run(.link([LinkRecord(Link(source: 1, target: 2)), LinkRecord(Link(source: 8, target: 3, distance: 70, strength: 0.3),
                                                                             attrs: attrs(#"{"w":1}"#)),
                       LinkRecord(Link(source: 4, target: 5)), LinkRecord(Link(source: 5, target: 6))]), at: 40)
        try run(.unlink([LinkEnds(source: 5, target: 4)]), at: 50)
        var change = ParameterChange()
        change.charge = 44
        change.linkStrength = 2
        try run(.params(change), at: 60)
        try run(.pin(id: 3, x: 12, y: -30), at: 70)
        var move = CellEdit(id: 3)  // an update moves the pinned cell: its pin goes with it
        move.x = 40
        move.y = 50
        try run(.update([move]), at: 75)
        try run(.pin(id: 4, x: 1, y: 1), at: 80)
        try run(.unpin(id: 4), at: 90)
        for _ in 0..<20 { _ = state.step() }
        try run(.remove(ids: [6, 1]), by: "c2", at: 100)
        try run(.add(count: 2, spawn: .random), by: "c3", at: 110)
        for _ in 0..<20 { _ = state.step() }
        log.append(Keyframe(of: state.simulation, at: start + 120, seq: seq))

        let moment = try XCTUnwrap(log.moment(at: start + 200))
        let rebuilt = moment.state
        let simulation = state.simulation
        XCTAssertEqual(Array(rebuilt.cells.keys), simulation.ids)
        for id in simulation.ids {
            XCTAssertEqual(rebuilt.cells[id], state.record(of: id), "cell \(id)'s data")
        }
        XCTAssertEqual(Set(rebuilt.links.values.map(\.link).map { [$0.source, $0.target] }),
                       Set(simulation.links.map { [$0.source, $0.target] }))
        for record in rebuilt.links.values {
            let link = try XCTUnwrap(simulation.links.first { $0.source == record.link.source && $0.target == record.link.target })
            XCTAssertEqual(record.link, link)
            XCTAssertEqual(record.attrs, state.catalog[link: link.source, link.target])
        }
        XCTAssertEqual(rebuilt.parameters, state.parameters)
        XCTAssertEqual(rebuilt.pins.keys.sorted(), simulation.pinnedIDs)
        XCTAssertEqual(rebuilt.nextID, simulation.nextID)
        XCTAssertEqual(rebuilt.seq, seq)

        let tolerance = F.tolerance(FrameBox(xs: simulation.xs, ys: simulation.ys))
        let placed = moment.placed
        XCTAssertEqual(placed.map(\.id), simulation.ids)
        for (index, cell) in placed.enumerated() {
            XCTAssertEqual(cell.x, simulation.xs[index], accuracy: tolerance, "cell \(cell.id)")
            XCTAssertEqual(cell.y, simulation.ys[index], accuracy: tolerance, "cell \(cell.id)")
        }
        XCTAssertEqual(placed.first { $0.id == 3 }.map { [$0.x, $0.y] }, [40, 50], "a pin exactly, where the update moved it")

        let saved = rebuilt.snapshot(placed: placed, floor: 0)
        let real = state.saved(reservation: simulation.nextID, settled: state.settled)
        XCTAssertEqual(saved.layout.cells.map(\.id), real.layout.cells.map(\.id))
        XCTAssertEqual(saved.layout.cells.map(\.pinned), real.layout.cells.map(\.pinned))
        XCTAssertEqual(saved.layout.cells.map(\.radius), real.layout.cells.map(\.radius))
        XCTAssertEqual(saved.layout.links, real.layout.links)
        XCTAssertEqual(saved.layout.parameters, real.layout.parameters)
        XCTAssertEqual(saved.layout.nextID, real.layout.nextID)
        XCTAssertEqual(saved.catalog, real.catalog)
        XCTAssertEqual(owners(saved.owners), owners(real.owners))
        XCTAssertEqual(owners(saved.owners), [2: "c1", 3: "c1", 4: "c1", 5: "c1", 7: "c2", 8: "c2", 9: "c2", 10: "c3", 11: "c3"])
        XCTAssertEqual(saved.settled, real.settled)
        let floored = rebuilt.snapshot(placed: placed, floor: 100)
        XCTAssertEqual([floored.layout.nextID, floored.reservation], [100, 100], "ids the room handed out since stay used")
    }

    func testTheDataSeqMovesOnlyWithCellsDataOrLinks() throws {
        var state = F.state(cells: 2)
        var log = HistoryLog(bounds: HistoryBounds(bytes: 1 << 30, seconds: 3600))
        var seq: UInt64 = 0
        log.start(F.checkpoint(state, at: 0))
        var edit = CellEdit(id: 2)
        edit.label = .set("two")
        var change = ParameterChange()
        change.charge = 12
        let commands: [(LayoutCommand, changesData: Bool)] = [
            (.params(change), false), (.pin(id: 1, x: 0, y: 0), false), (.link([LinkRecord(Link(source: 1, target: 2))]), true),
            (.unpin(id: 1), false), (.update([edit]), true), (.add(count: 1, spawn: .random), true),
            (.pin(id: 3, x: 4, y: 4), false), (.remove(ids: [3]), true), (.params(change), false),
        ]
        var expected: UInt64 = 0
        for (at, (command, changesData)) in commands.enumerated() {
            let first = seq + 1
            try F.apply(command, to: &state, log: &log, seq: &seq, at: at + 1)
            if changesData { expected = first }
            let moment = try XCTUnwrap(log.moment(at: at + 1))
            XCTAssertEqual(moment.state.dataSeq, expected, "after \(command)")
            XCTAssertEqual(moment.state.seq, seq)
        }
        XCTAssertGreaterThan(seq, 5)
    }

    private func owners(_ runs: [Ownership.Run]) -> [CellID: String] {
        var owners: [CellID: String] = [:]
        for run in runs { for id in run.first...run.last { owners[id] = run.client } }
        return owners
    }
}
