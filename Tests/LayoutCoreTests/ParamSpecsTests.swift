import ForceLayout
import XCTest
@testable import LayoutCore

final class ParamSpecsTests: XCTestCase {
    private let decoder = MessageDecoder(limits: Limits())

    private func change(_ name: String, _ value: String) -> Result<ParameterChange, ProtocolError> {
        decoder.decode(Array(#"{"type":"params","\#(name)":\#(value)}"#.utf8)).map { request in
            guard case .layout(.params(let change)) = request.message else { fatalError("not params") }
            return change
        }
    }

    /// Read back from `hello.paramSpecs`, every row gives the table's own values.
    func testParamSpecsRoundTrip() throws {
        guard case .array(let rows) = try JSONParser.parse(ServerMessages.paramSpecs) else { return XCTFail("not an array") }
        XCTAssertEqual(rows.count, Parameters.table.count)
        for (row, spec) in zip(rows, Parameters.table) {
            XCTAssertEqual(row["name"], .string(spec.name))
            XCTAssertEqual(row["kind"], .string(spec.kind.rawValue))
            XCTAssertEqual(row["label"], .string(spec.label))
            XCTAssertEqual(row["description"], .string(spec.description))
            XCTAssertEqual(row["control"], .string(spec.control.rawValue))
            switch spec.defaultValue {
            case .number(let value): XCTAssertEqual(row["default"], .number(value), spec.name)
            case .bool(let value): XCTAssertEqual(row["default"], .bool(value), spec.name)
            case .choice(let value): XCTAssertEqual(row["default"], .string(value), spec.name)
            }
            XCTAssertEqual(row["options"], spec.options.map { .array($0.map(JSONValue.string)) }, spec.name)
            XCTAssertEqual(row["min"], spec.range.map { .number($0.lower) }, spec.name)
            XCTAssertEqual(row["max"], spec.range.map { .number($0.upper) }, spec.name)
            XCTAssertEqual(row["minExclusive"], spec.range.map { .bool($0.lowerExclusive) }, spec.name)
            XCTAssertEqual(row["step"], spec.step.map { .number($0) }, spec.name)
            XCTAssertEqual(row["physics"], spec.physics.map { .string($0.rawValue) }, spec.name)
            guard case .object(let members) = row else { return XCTFail("not an object") }
            let count = switch spec.kind { case .number: 10; case .bool: 6; case .choice: 7 }
            XCTAssertEqual(members.count, count + (spec.physics == nil ? 0 : 1), spec.name)
        }
        let hello = try JSONParser.parse(ServerMessages.hello(client: "c1", room: .main, clients: 1, standing: Standing(role: .editor, access: .open), status: LayoutStatus(),
                                                              limits: Limits(), events: []))
        XCTAssertEqual(hello["paramSpecs"], .array(rows))
        XCTAssertEqual(Parameters.table.filter { $0.physics == .cells }.map(\.name), ["stiffness", "charge", "collide"])
        XCTAssertEqual(Parameters.table.filter { $0.physics == .graph }.map(\.name), [], "edgeLength and linkStrength act in both")
    }

    /// hello and stats say which physics moves the cells, and `unfolding` only while it is so.
    func testHelloAndStatsSayThePhysicsAndUnfolding() throws {
        var status = LayoutStatus()
        XCTAssertNil(try JSONParser.parse(ServerMessages.hello(client: "c1", room: .main, clients: 1, standing: Standing(role: .editor, access: .open), status: status,
                                                               limits: Limits(), events: []))["physics"])
        status.physics = "graph"
        status.unfolding = true
        let hello = try JSONParser.parse(ServerMessages.hello(client: "c1", room: .main, clients: 1, standing: Standing(role: .editor, access: .open), status: status,
                                                              limits: Limits(), events: []))
        XCTAssertEqual(hello["physics"], .string("graph"))
        XCTAssertEqual(hello["unfolding"], .bool(true))
        status.unfolding = nil
        let again = try JSONParser.parse(ServerMessages.hello(client: "c1", room: .main, clients: 1, standing: Standing(role: .editor, access: .open), status: status,
                                                              limits: Limits(), events: []))
        XCTAssertNil(again["unfolding"])
    }

    /// For every row, whatever its range: accepted at its bounds, refused just outside them;
    /// a choice accepts each of its options and refuses anything else, naming them.
    func testTheTableDrivesDecoding() {
        for spec in Parameters.table {
            if let options = spec.options {
                for option in options {
                    XCTAssertEqual(try change(spec.name, "\"\(option)\"").get()[spec], .choice(option), spec.name)
                }
                let named = options.map { "\"\($0)\"" }.joined(separator: ", ")
                let refused = ["\"\(options[0].uppercased())\"", "\"\"", "\" \(options[0])\"", "0", "true", "null", "[\"\(options[0])\"]"]
                for value in refused {
                    guard case .failure(let error) = change(spec.name, value) else { XCTFail("\(spec.name) \(value) accepted"); continue }
                    XCTAssertEqual(error.code, .badRequest)
                    XCTAssertTrue(error.message.hasPrefix("\(spec.name) must be one of \(named), not "), error.message)
                }
                continue
            }
            guard let range = spec.range else {
                XCTAssertEqual(try change(spec.name, "true").get()[spec], .bool(true), spec.name)
                XCTAssertEqual(try change(spec.name, "false").get()[spec], .bool(false), spec.name)
                XCTAssertThrowsError(try change(spec.name, "0").get(), spec.name)
                continue
            }
            let lowest = range.lowerExclusive ? range.lower.nextUp : range.lower
            for value in [lowest, range.upper] {
                XCTAssertEqual(try change(spec.name, JSONText.number(value)).get()[spec], .number(value), spec.name)
            }
            for value in [range.lowerExclusive ? range.lower : range.lower - 0.001, range.upper * 1.001, -1e9] {
                guard case .failure(let error) = change(spec.name, JSONText.number(value)) else {
                    XCTFail("\(spec.name) \(value) accepted"); continue
                }
                XCTAssertEqual(error.code, .badRequest)
                XCTAssertTrue(error.message.hasPrefix("\(spec.name) must be a finite number in \(range.text), not "), error.message)
            }
        }
    }

    func testAChangeReadsAndAppliesByTableRow() {
        var change = ParameterChange()
        XCTAssertTrue(change.isEmpty)
        change.paused = true
        change.theta = 0
        change.charge = 2000   // a library caller's value, out of range: sanitised where applied
        XCTAssertEqual(change.entries.map(\.spec.name), ["charge", "theta", "paused"])
        XCTAssertEqual(change[Parameters.spec(for: \.theta)], .number(0))
        XCTAssertNil(change.stiffness)
        let (parameters, changed) = change.applied(to: .defaults)
        XCTAssertEqual(changed, ["charge", "theta", "paused"])
        XCTAssertEqual(parameters.charge, 1000)
        XCTAssertEqual(parameters.theta, 0)
        XCTAssertTrue(parameters.paused)
        XCTAssertEqual(change.applied(to: parameters).changed, [])
        var choice = ParameterChange()
        choice.model = "graph"
        XCTAssertEqual(choice.entries.map(\.spec.name), ["model"])
        XCTAssertEqual(choice[Parameters.spec(for: \.model)], .choice("graph"))
        XCTAssertEqual(choice.applied(to: parameters).0.model, "graph")
        XCTAssertEqual(choice.applied(to: parameters).changed, ["model"])
        choice.model = "spiral"   // a library caller's name that is no option: the default where applied
        XCTAssertEqual(choice.applied(to: parameters).0.model, Parameters.defaults.model)
        XCTAssertEqual(choice.applied(to: parameters).changed, [])
    }
}
