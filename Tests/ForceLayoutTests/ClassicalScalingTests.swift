import XCTest
@testable import ForceLayout

/// Starts from hop distances (`ClassicalScaling`): a ring round, a path straight, a grid flat.
final class ClassicalScalingTests: XCTestCase {
    private func coordinates(_ graph: (Int, [(Int, Int)])) throws -> [(x: Double, y: Double)] {
        let built = WeightedGraph(count: graph.0, edges: graph.1.map { (Int32($0.0), Int32($0.1), 1) })
        let (xs, ys) = try XCTUnwrap(ClassicalScaling.coordinates(graph: built, members: Array(0..<graph.0)))
        return Array(zip(xs, ys)).map { (x: $0.0, y: $0.1) }
    }

    func testARingStartsRound() throws {
        let points = try coordinates(TestGraphs.ring(12))
        let radii = points.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }
        let mean = radii.reduce(0, +) / 12
        XCTAssertGreaterThan(mean, 1)
        for r in radii { XCTAssertEqual(r, mean, accuracy: 0.01 * mean) }
    }

    func testAPathStartsStraightAndInOrder() throws {
        let points = try coordinates(TestGraphs.path(10))
        let xs = points.map(\.x)
        let increasing = zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 }
        let decreasing = zip(xs, xs.dropFirst()).allSatisfy { $0 > $1 }
        XCTAssertTrue(increasing || decreasing, "cells in path order along the first axis")
        XCTAssertEqual(Swift.abs(xs[9] - xs[0]), 9, accuracy: 1.5, "about one hop apart")
        let bend = points.map { Swift.abs($0.y) }.max()!
        XCTAssertLessThan(bend, 0.35 * Swift.abs(xs[9] - xs[0]))
    }

    func testAGridStartsFlat() throws {
        let graph = TestGraphs.grid(6, 6)
        let points = try coordinates(graph)
        // Every square faces the same way: the start is not folded.
        var turns = (positive: 0, negative: 0)
        for r in 0..<5 {
            for c in 0..<5 {
                let a = points[r * 6 + c], b = points[r * 6 + c + 1], d = points[(r + 1) * 6 + c]
                let cross = (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x)
                if cross > 0 { turns.positive += 1 } else { turns.negative += 1 }
            }
        }
        XCTAssertEqual(min(turns.positive, turns.negative), 0)
    }

    func testPlaceKeepsEachComponentWhereItWas() {
        // Two rings, far apart: each is laid out about its own centroid.
        let links = TestGraphs.ring(8).1 + TestGraphs.ring(8).1.map { ($0.0 + 8, $0.1 + 8) }
        let built = WeightedGraph(count: 16, edges: links.map { (Int32($0.0), Int32($0.1), 1) })
        var xs = (0..<16).map { $0 < 8 ? Double($0) : 1000 + Double($0) }, ys = [Double](repeating: 0, count: 16)
        let before = (xs[0..<8].reduce(0, +) / 8, xs[8...].reduce(0, +) / 8)
        ClassicalScaling.place(graph: built, components: Components(built), length: 30, xs: &xs, ys: &ys)
        XCTAssertEqual(xs[0..<8].reduce(0, +) / 8, before.0, accuracy: 1e-6)
        XCTAssertEqual(xs[8...].reduce(0, +) / 8, before.1, accuracy: 1e-6)
        XCTAssertGreaterThan(ys.map(Swift.abs).max()!, 20, "each ring is drawn round, not left on its line")
    }
}
