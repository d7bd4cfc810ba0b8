import Foundation
import XCTest
@testable import ForceLayout

/// `edgeLength` ("Link length") and `linkStrength` in both models: a link without a distance
/// of its own rests at the room's length, one with its own keeps it; a longer length gives
/// longer links at rest, a stronger pull shorter ones; at their defaults nothing changes.
final class LinkParameterTests: XCTestCase {
    private func parameters(model: LayoutModel, edgeLength: Double = 30, linkStrength: Double = 1) -> Parameters {
        var parameters = Parameters()
        parameters.model = model.rawValue
        parameters.edgeLength = edgeLength
        parameters.linkStrength = linkStrength
        return parameters
    }

    /// Two cells 100 apart, linked (with `distance` when given), and the pull on each.
    private func pull(distance: Double? = nil, edgeLength: Double, linkStrength: Double) throws -> Double {
        let sim = Simulation(parameters: parameters(model: .cells, edgeLength: edgeLength, linkStrength: linkStrength), seed: 1)
        _ = sim.add(count: 2)
        sim.xs = [0, 100]
        sim.ys = [0, 0]
        try sim.link([Link(source: 1, target: 2, distance: distance)])
        sim.forceX = [0, 0]
        sim.forceY = [0, 0]
        sim.addLinkForces(parallel: false)
        XCTAssertEqual(sim.forceX[0], -sim.forceX[1], accuracy: 1e-12)
        return sim.forceX[0]
    }

    func testTheCellsModelsLinksRestAtTheRoomsLengthUnlessTheyHaveTheirOwn() throws {
        // (100 - rest) / 100 × strength 1 × linkStrength, half each.
        XCTAssertEqual(try pull(edgeLength: 30, linkStrength: 1), 35, accuracy: 1e-12)
        XCTAssertEqual(try pull(edgeLength: 50, linkStrength: 1), 25, accuracy: 1e-12)
        XCTAssertEqual(try pull(edgeLength: 50, linkStrength: 2), 50, accuracy: 1e-12)
        XCTAssertEqual(try pull(edgeLength: 50, linkStrength: 0), 0, accuracy: 1e-12)
        XCTAssertEqual(try pull(distance: 80, edgeLength: 50, linkStrength: 1), 10, accuracy: 1e-12, "its own distance wins")
        XCTAssertEqual(try pull(distance: 80, edgeLength: 50, linkStrength: 3), 30, accuracy: 1e-12, "linkStrength scales it too")
    }

    /// The mean length of a ring of 12's links once it settled.
    private func ringAtRest(_ model: LayoutModel, edgeLength: Double = 30, linkStrength: Double = 1) -> Double {
        let (sim, ids) = graphSimulation(TestGraphs.ring(12), seed: 2,
                                         parameters: parameters(model: model, edgeLength: edgeLength, linkStrength: linkStrength))
        XCTAssertNotNil(runUntilSettled(sim, limit: 20_000), "\(model) \(edgeLength) \(linkStrength) did not settle")
        let lengths = (0..<12).map { distance(sim.position(of: ids[$0])!, sim.position(of: ids[($0 + 1) % 12])!) }
        XCTAssertFalse(lengths.contains { !$0.isFinite })
        return lengths.reduce(0, +) / 12
    }

    func testALongerLinkLengthGivesLongerLinksAtRestInBothModels() {
        for model in [LayoutModel.cells, .graph] {
            let short = ringAtRest(model, edgeLength: 30), long = ringAtRest(model, edgeLength: 90)
            XCTAssertGreaterThan(long, 1.5 * short, "\(model): \(short) → \(long)")
        }
    }

    func testAStrongerLinkShortensLinksAtRestInBothModels() {
        // The cells model: the charges stretch each link beyond its rest length (30), a
        // stronger spring less so.
        let weak = ringAtRest(.cells, linkStrength: 0.5), normal = ringAtRest(.cells), strong = ringAtRest(.cells, linkStrength: 4)
        XCTAssertLessThan(normal - 30, 0.7 * (weak - 30), "cells: \(weak) → \(normal)")
        XCTAssertLessThan(strong - 30, 0.6 * (normal - 30), "cells: \(normal) → \(strong)")
        XCTAssertGreaterThan(strong, 30)
        // The graph model: two linked nodes alone rest (C/s)^(2/9)·K apart; a ring about so.
        let graphWeak = ringAtRest(.graph, linkStrength: 0.5), graphNormal = ringAtRest(.graph),
            graphStrong = ringAtRest(.graph, linkStrength: 4)
        XCTAssertEqual(graphNormal / graphWeak, pow(0.5, 2.0 / 9), accuracy: 0.05, "graph: \(graphWeak) → \(graphNormal)")
        XCTAssertEqual(graphStrong / graphNormal, pow(0.25, 2.0 / 9), accuracy: 0.05, "graph: \(graphNormal) → \(graphStrong)")
    }

    func testNoPullAtAllStaysFiniteInTheGraphModel() {
        let (sim, _) = graphSimulation(TestGraphs.grid(8, 8), seed: 5, parameters: parameters(model: .graph, linkStrength: 0))
        for _ in 0..<300 { _ = sim.step() }
        XCTAssertFalse(sim.xs.contains { !$0.isFinite } || sim.ys.contains { !$0.isFinite })
    }

    /// At linkStrength 1 the graph model is what it was: a multiplier of 1 changes no bit.
    func testAtTheDefaultsTheDrawingIsTheSameAsWithoutTheParameters() {
        let graph = TestGraphs.grid(12, 12)
        let (a, _) = graphSimulation(graph, seed: 9)
        let (b, _) = graphSimulation(graph, seed: 9, parameters: parameters(model: .auto, edgeLength: 30, linkStrength: 1))
        for _ in 0..<200 {
            _ = a.step()
            _ = b.step()
        }
        XCTAssertEqual(a.xs, b.xs)
        XCTAssertEqual(a.ys, b.ys)
    }

    func testChangingTheLengthMovesARestingLayoutAgain() {
        let (sim, ids) = graphSimulation(TestGraphs.ring(12), seed: 2, parameters: parameters(model: .cells))
        XCTAssertNotNil(runUntilSettled(sim, limit: 20_000))
        let before = distance(sim.position(of: ids[0])!, sim.position(of: ids[1])!)
        sim.parameters.edgeLength = 80
        XCTAssertFalse(sim.step().settled)
        XCTAssertNotNil(runUntilSettled(sim, limit: 20_000))
        XCTAssertGreaterThan(distance(sim.position(of: ids[0])!, sim.position(of: ids[1])!), before * 1.5)
    }
}
