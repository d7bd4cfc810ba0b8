import ForceLayout
import LayoutServer

extension MessagePathFuzzer {
    /// Applies the command to a layout of 8 cells (cell 2 pinned) the way the simulation thread
    /// does: all or nothing, then a few steps; every position must stay finite and every frame
    /// coordinate must be written as a number close to it.
    static func applyToSmallLayout(_ command: LayoutCommand, bytes: [UInt8]) {
        let simulation = Simulation(seed: 7)
        simulation.add(count: 8, spawn: .random)
        try? simulation.pin(2, x: 10, y: 20)
        let before = (ids: simulation.ids, xs: simulation.xs, ys: simulation.ys, version: simulation.version,
                      pinned: simulation.pinnedIDs)
        func unchanged() -> Bool {
            simulation.ids == before.ids && simulation.xs == before.xs && simulation.ys == before.ys
                && simulation.version == before.version && simulation.pinnedIDs == before.pinned
        }
        switch command {
        case .add(let count, let spawn):
            guard simulation.count + count <= layoutCap else { return }  // the loop answers `limit`
            let added = simulation.add(count: count, spawn: spawn)
            require(added.count == count && added.first.map { $0 > before.ids.last! } == true
                        && simulation.count == before.ids.count + count, "add \(count) added \(added)", bytes)
        case .remove(let ids):
            do {
                let removed = try simulation.remove(ids: ids)
                require(removed == Set(ids).sorted() && simulation.count == before.ids.count - removed.count,
                        "remove \(ids) removed \(removed)", bytes)
            } catch {
                require(unchanged(), "a rejected remove changed the layout", bytes)
                return
            }
        case .removeNewest(let count):
            let removed = simulation.removeNewest(count)
            require(removed == Array(before.ids.suffix(count)), "remove newest \(count) removed \(removed)", bytes)
        case .clear:
            require(simulation.clear() == before.ids && simulation.count == 0, "clear", bytes)
        case .params(let change):
            let (parameters, changed) = change.applied(to: simulation.parameters)
            require(Set(changed).count == changed.count, "a parameter reported changed twice", bytes)
            require(changed.isEmpty == (parameters == simulation.parameters), "changed names disagree with the values", bytes)
            simulation.parameters = parameters
        case .pin(let id, let x, let y):
            do {
                try simulation.pin(id, x: x, y: y)
                require(simulation.position(of: id).map { $0.x == x && $0.y == y } == true && simulation.isPinned(id),
                        "pin \(id) did not hold the cell at (\(x), \(y))", bytes)
            } catch {
                require(!before.ids.contains(id) && unchanged(), "a rejected pin of \(id)", bytes)
                return
            }
        case .unpin(let id):
            do {
                try simulation.unpin(id)
                require(!simulation.isPinned(id), "unpin \(id) left it pinned", bytes)
            } catch {
                require(!before.ids.contains(id) && unchanged(), "a rejected unpin of \(id)", bytes)
                return
            }
        }
        for _ in 0..<3 { simulation.step() }
        require(simulation.xs.allSatisfy(\.isFinite) && simulation.ys.allSatisfy(\.isFinite),
                "a position is not finite after stepping", bytes)
        var writer = JSONWriter()
        writer.array(Array(zip(simulation.xs, simulation.ys))) { $0.position($1.0); $0.raw(UInt8(ascii: ",")); $0.position($1.1) }
        guard case .array(let written)? = try? JSONParser.parse(writer.bytes), written.count == 2 * simulation.count else {
            fail("frame coordinates are not a JSON array of numbers", bytes)
        }
        for (index, value) in written.enumerated() {
            let actual = index % 2 == 0 ? simulation.xs[index / 2] : simulation.ys[index / 2]
            guard case .number(let number) = value,
                  abs(number - actual) <= (abs(actual) < NumberFormatting.wholeUnitsFrom ? 0.05 : 0.5) + 1e-9 else {
                fail("coordinate \(actual) written as \(value)", bytes)
            }
        }
    }
}
