import XCTest
@testable import ForceLayout

/// The multilevel layout's coarsening and prolongation (`Graph/Coarsening.swift`,
/// `Graph/MultilevelLayout.swift`).
final class CoarseningTests: XCTestCase {
    private func weighted(_ graph: (Int, [(Int, Int)])) -> WeightedGraph {
        WeightedGraph(count: graph.0, edges: graph.1.map { (Int32($0.0), Int32($0.1), 1) })
    }

    func testEveryNodeIsMappedAndTheLevelShrinks() {
        for graph in [TestGraphs.grid(30, 30), TestGraphs.path(101), TestGraphs.scaleFree(1000, m: 2, seed: 3)] {
            var rng = SeededRandom(seed: 1)
            let fine = weighted(graph)
            let step = Coarsening(fine, rng: &rng)
            XCTAssertEqual(step.groupOf.count, fine.count)
            XCTAssertTrue(step.groupOf.allSatisfy { $0 >= 0 && Int($0) < step.coarse.count })
            XCTAssertEqual(Set(step.groupOf).count, step.coarse.count, "no empty group")
            XCTAssertLessThanOrEqual(step.coarse.count, fine.count * 6 / 10, "at least 40% fewer nodes")
            XCTAssertEqual(step.coarse.nodeWeights.reduce(0, +), Double(fine.count), "weights add up")
        }
    }

    /// Every fine link between two groups is a coarse link, weighing all it stands for.
    func testLinksAreKept() {
        var rng = SeededRandom(seed: 2)
        let fine = weighted(TestGraphs.grid(20, 20))
        let step = Coarsening(fine, rng: &rng)
        var expected: [Int: Double] = [:]
        for node in 0..<fine.count {
            for e in fine.edges(of: node) {
                let a = Int(step.groupOf[node]), b = Int(step.groupOf[Int(fine.neighbours[e])])
                if a != b { expected[a * step.coarse.count + b, default: 0] += fine.weights[e] }
            }
        }
        var found: [Int: Double] = [:]
        for g in 0..<step.coarse.count {
            for e in step.coarse.edges(of: g) { found[g * step.coarse.count + Int(step.coarse.neighbours[e])] = step.coarse.weights[e] }
        }
        XCTAssertEqual(found, expected)
        XCTAssertEqual(Components(step.coarse).count, 1, "a connected graph stays connected")
    }

    /// Components never merge: each coarse node lies in one component.
    func testComponentsAreKeptApart() {
        let links = TestGraphs.path(50).1 + TestGraphs.path(50).1.map { ($0.0 + 50, $0.1 + 50) }
        let fine = weighted((101, links))
        var rng = SeededRandom(seed: 3)
        let step = Coarsening(fine, rng: &rng)
        let components = Components(fine)
        XCTAssertEqual(components.count, 3, "two paths and a lone node")
        XCTAssertEqual(Components(step.coarse).count, 3)
        let coarse = components.coarsened(by: step.groupOf, coarseCount: step.coarse.count)
        for node in 0..<fine.count {
            XCTAssertEqual(coarse.of[Int(step.groupOf[node])], components.of[node])
        }
    }

    /// The levels shrink to the coarsest size, and each finer level starts where its
    /// groups were (prolongation): at the end the cells are near their coarse nodes.
    func testTheLevelsShrinkAndCellsStartWhereTheirGroupsWere() {
        let fine = weighted(TestGraphs.grid(20, 20))
        var rng = SeededRandom(seed: 4)
        var plan = MultilevelLayout(graph: fine, components: Components(fine), k: 30, start: nil, rng: &rng)!
        let sizes = plan.levels.map(\.count)
        XCTAssertEqual(sizes.first, 400)
        XCTAssertEqual(sizes, sizes.sorted(by: >), "each level smaller than the last")
        XCTAssertLessThanOrEqual(sizes.last!, MultilevelLayout.coarsestSize)
        var tree = QuadTree()
        var scratch = GraphScratch(rng: SeededRandom(seed: 5))
        var levelsSeen = [plan.level]
        var done = false
        for tick in 0..<100_000 where !done {
            done = plan.advance(theta: 0.9, tick: tick, tree: &tree, scratch: &scratch)
            if plan.level != levelsSeen.last { levelsSeen.append(plan.level) }
        }
        XCTAssertTrue(done)
        XCTAssertEqual(levelsSeen, Array((1...(sizes.count - 1)).reversed()), "every level in turn, coarse to fine")
        let places = plan.finish(rng: &scratch.rng)
        for cell in 0..<400 {
            let node = plan.position(ofCell: cell)
            XCTAssertLessThanOrEqual(distance((places.xs[cell], places.ys[cell]), node), 0.15 * 30)
        }
    }

    func testStepLengthCoolsWhenEnergyRisesAndHeatsAfterFiveFalls() {
        var step = StepLength(10, cooling: 0.9)
        step.update(energy: 100)
        XCTAssertEqual(step.length, 10, "the first energy only sets the mark")
        step.update(energy: 120)
        XCTAssertEqual(step.length, 9, accuracy: 1e-12)
        for energy in [110.0, 100, 90, 80] { step.update(energy: energy) }
        XCTAssertEqual(step.length, 9, accuracy: 1e-12, "four falls in a row")
        step.update(energy: 70)
        XCTAssertEqual(step.length, 10, accuracy: 1e-12, "the fifth heats it, up to where it started")
        for _ in 0..<600 { step.update(energy: 1) }
        XCTAssertLessThan(step.length, 1e-6, "past the heating limit it only cools")
        step.reheat(to: 5)
        XCTAssertEqual(step.length, 5)
    }
}
