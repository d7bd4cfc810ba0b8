import Foundation
import XCTest
@testable import ForceLayout

final class ParameterTableTests: XCTestCase {
    /// Every stored property of `Parameters` has exactly one row, in declaration order, named
    /// as the property; every row's key path is its own.
    func testEveryParameterAppearsExactlyOnce() {
        let properties = Mirror(reflecting: Parameters.defaults).children.map { $0.label ?? "?" }
        let names = Parameters.table.map(\.name)
        XCTAssertEqual(names, properties)
        XCTAssertEqual(Set(names).count, names.count)
        XCTAssertEqual(Set(Parameters.table.map(\.keyPath)).count, names.count)
        for spec in Parameters.table {
            XCTAssertEqual(Parameters.spec(for: spec.keyPath).name, spec.name)
            XCTAssertFalse(spec.label.isEmpty || spec.description.isEmpty, spec.name)
        }
    }

    func testDefaultsComeFromTheTableAndLieInRange() {
        for spec in Parameters.table {
            XCTAssertEqual(spec.value(in: Parameters()), spec.defaultValue, spec.name)
            XCTAssertTrue(spec.accepts(spec.defaultValue), spec.name)
            XCTAssertEqual(spec.kind == .number, spec.range != nil && spec.step != nil, spec.name)
            XCTAssertEqual(spec.kind == .bool, spec.control == .toggle, spec.name)
        }
        XCTAssertEqual(Parameters(), Parameters.defaults)
        XCTAssertEqual(Parameters.defaults.charge, 10)
        XCTAssertEqual(Parameters.defaults.collide, false)
    }

    func testSanitisingKeepsWhatIsInRangeAndClampsTheRest() {
        let range = NumberRange(0...2)
        for value in [0.0, -0.0, 1e-300, 1.5, 2] {
            XCTAssertEqual(range.clamped(value, fallback: 1).bitPattern, value.bitPattern, "\(value)")
        }
        XCTAssertEqual(range.clamped(-1, fallback: 1), 0)
        XCTAssertEqual(range.clamped(.infinity, fallback: 1), 2)
        XCTAssertEqual(range.clamped(-.infinity, fallback: 1), 0)
        XCTAssertEqual(range.clamped(.nan, fallback: 1), 1)
        let open = NumberRange(0...1, lowerExclusive: true)
        XCTAssertEqual(open.clamped(0, fallback: 0.5), .leastNonzeroMagnitude)
        XCTAssertTrue(open.contains(open.clamped(-3, fallback: 0.5)))

        var wild = Parameters.defaults
        (wild.stiffness, wild.charge, wild.cellSize, wild.threshold) = (.nan, .infinity, 0, -1)
        (wild.tickRate, wild.theta, wild.collide) = (1e9, -.infinity, true)
        let sane = wild.sanitized
        XCTAssertEqual(sane.stiffness, Parameters.defaults.stiffness)
        XCTAssertEqual([sane.charge, sane.cellSize, sane.threshold, sane.tickRate, sane.theta], [1000, 1, 0, 120, 0])
        XCTAssertTrue(sane.collide)
        for spec in Parameters.table { XCTAssertTrue(spec.accepts(spec.value(in: sane)), spec.name) }
        XCTAssertEqual(Parameters.defaults.sanitized, Parameters.defaults)
    }

    func testSimulationSanitisesWhatItIsGiven() {
        var wild = Parameters.defaults
        wild.cellSize = .nan
        wild.theta = 9
        let simulation = Simulation(parameters: wild)
        XCTAssertEqual(simulation.parameters.cellSize, 20)
        XCTAssertEqual(simulation.parameters.theta, 2)
        simulation.parameters.charge = -5
        XCTAssertEqual(simulation.parameters.charge, 0)
        simulation.parameters.stiffness = 0.5
        XCTAssertEqual(simulation.parameters.stiffness, 0.5)
    }

    func testOnlyThresholdTickRateAndPausedLeaveCellsMovingAlike() {
        XCTAssertEqual(Parameters.table.filter { !$0.movesCells }.map(\.name), ["threshold", "tickRate", "paused"])
        var other = Parameters.defaults
        (other.threshold, other.tickRate, other.paused) = (5, 60, true)
        XCTAssertTrue(other.movesCellsLike(.defaults))
        other.collide = true
        XCTAssertFalse(other.movesCellsLike(.defaults))
    }

    func testCodableUsesTheWireNames() throws {
        var parameters = Parameters.defaults
        parameters.theta = 0.5
        parameters.paused = true
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(parameters)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), Set(Parameters.table.map(\.name)))
        XCTAssertEqual(object["theta"] as? Double, 0.5)
        XCTAssertEqual(object["paused"] as? Bool, true)
        XCTAssertEqual(try JSONDecoder().decode(Parameters.self, from: Data(#"{"theta":0.5,"paused":true}"#.utf8)), parameters)
        XCTAssertThrowsError(try JSONDecoder().decode(Parameters.self, from: Data(#"{"collide":1}"#.utf8)))
    }
}
