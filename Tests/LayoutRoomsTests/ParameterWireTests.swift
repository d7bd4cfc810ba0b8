import ForceLayout
import Foundation
import XCTest
@testable import LayoutCore

/// What the wire and the state file say about parameters, pinned byte for byte as the server
/// wrote and judged them before the parameter table: written out here by hand, not derived
/// from the table, so a change to the table that changes the protocol fails here. `model`
/// and `edgeLength` (issue 23) are additions at the end of every parameter object.
final class ParameterWireTests: XCTestCase {
    private let decoder = MessageDecoder(limits: Limits())

    /// name, values accepted (as JSON text), values refused with the exact message.
    private let cases: [(name: String, accepted: [String], refused: [(String, String)])] = [
        ("stiffness", ["5e-324", "0.02", "1"], [
            ("0", "stiffness must be a finite number in (0, 1], not 0"),
            ("-0", "stiffness must be a finite number in (0, 1], not 0"),
            ("1.0000001", "stiffness must be a finite number in (0, 1], not 1.0000001"),
            ("1e400", "stiffness must be a finite number in (0, 1], not 0"),
        ]),
        ("charge", ["0", "-0", "1000"], [
            ("-0.001", "charge must be a finite number in [0, 1000], not -0.001"),
            ("1000.5", "charge must be a finite number in [0, 1000], not 1000.5"),
            ("\"10\"", "charge must be a finite number in [0, 1000], not \"10\""),
        ]),
        ("cellSize", ["1", "200"], [
            ("0.999", "cellSize must be a finite number in [1, 200], not 0.999"),
            ("201", "cellSize must be a finite number in [1, 200], not 201"),
        ]),
        ("threshold", ["0", "1e-400", "1e6"], [
            ("-0.001", "threshold must be a finite number in [0, 1000000], not -0.001"),
            ("1000000.1", "threshold must be a finite number in [0, 1000000], not 1000000.1"),
        ]),
        ("tickRate", ["1", "120"], [
            ("0.999", "tickRate must be a finite number in [1, 120], not 0.999"),
            ("121", "tickRate must be a finite number in [1, 120], not 121"),
            ("null", "tickRate must be a finite number in [1, 120], not null"),
        ]),
        ("theta", ["0", "2"], [
            ("-0.001", "theta must be a finite number in [0, 2], not -0.001"),
            ("2.001", "theta must be a finite number in [0, 2], not 2.001"),
            ("true", "theta must be a finite number in [0, 2], not true"),
        ]),
        ("collide", ["true", "false"], [
            ("1", "collide must be true or false, not 1"),
            ("\"true\"", "collide must be true or false, not \"true\""),
        ]),
        ("paused", ["true", "false"], [
            ("0", "paused must be true or false, not 0"),
            ("null", "paused must be true or false, not null"),
        ]),
        ("model", [#""auto""#, #""cells""#, #""graph""#], [
            (#""sfdp""#, #"model must be one of "auto", "cells", "graph", not "sfdp""#),
            (#""Graph""#, #"model must be one of "auto", "cells", "graph", not "Graph""#),
            (#""""#, #"model must be one of "auto", "cells", "graph", not """#),
            ("1", #"model must be one of "auto", "cells", "graph", not 1"#),
            ("null", #"model must be one of "auto", "cells", "graph", not null"#),
            (#"["graph"]"#, #"model must be one of "auto", "cells", "graph", not an array"#),
        ]),
        ("edgeLength", ["1", "30", "1000"], [
            ("0.5", "edgeLength must be a finite number in [1, 1000], not 0.5"),
            ("1001", "edgeLength must be a finite number in [1, 1000], not 1001"),
            (#""30""#, #"edgeLength must be a finite number in [1, 1000], not "30""#),
        ]),
    ]

    func testEveryParameterIsAcceptedAtItsBoundsAndRefusedOutsideAsBefore() throws {
        XCTAssertEqual(cases.map(\.name), ["stiffness", "charge", "cellSize", "threshold", "tickRate", "theta", "collide", "paused", "model", "edgeLength"])
        for (name, accepted, refused) in cases {
            for value in accepted {
                let text = #"{"type":"params","\#(name)":\#(value)}"#
                guard case .success(let request) = decoder.decode(Array(text.utf8)),
                      case .layout(.params(let change)) = request.message else {
                    XCTFail("\(text) refused"); continue
                }
                let (parameters, _) = change.applied(to: Parameters.defaults)
                var written = JSONWriter()
                ServerMessages.writeParameters(parameters, into: &written)
                let expected = try JSONParser.parse(Array(value.utf8))
                XCTAssertEqual(try JSONParser.parse(written.bytes)[name], expected == .number(-0.0) ? .number(0) : expected, text)
            }
            for (value, message) in refused {
                // A valid parameter beside it does not change the answer: all or nothing.
                let valid = name == "charge" ? #""theta":1"# : #""charge":12"#
                let text = #"{"type":"params",\#(valid),"\#(name)":\#(value),"ref":"r"}"#
                guard case .failure(let error) = decoder.decode(Array(text.utf8)) else { XCTFail("\(text) accepted"); continue }
                XCTAssertEqual(error.code, .badRequest, text)
                XCTAssertEqual(error.message, message, text)
                XCTAssertEqual(error.ref, "r", text)
            }
        }
    }

    func testTheFirstBadParameterInWireOrderIsReported() {
        let text = #"{"type":"params","paused":1,"theta":9,"stiffness":0}"#
        guard case .failure(let error) = decoder.decode(Array(text.utf8)) else { return XCTFail("accepted") }
        XCTAssertEqual(error.message, "stiffness must be a finite number in (0, 1], not 0")
        guard case .failure(let unknown) = decoder.decode(Array(#"{"type":"params","gravity":1,"charge":3}"#.utf8)) else {
            return XCTFail("accepted")
        }
        XCTAssertEqual(unknown.message, #"unknown parameter "gravity""#)
        guard case .failure(let empty) = decoder.decode(Array(#"{"type":"params"}"#.utf8)) else { return XCTFail("accepted") }
        XCTAssertEqual(empty.message, "params needs at least one parameter")
    }

    func testParametersAreWrittenAsBefore() {
        var writer = JSONWriter()
        ServerMessages.writeParameters(.defaults, into: &writer)
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self),
                       #"{"stiffness":0.02,"charge":10,"cellSize":20,"threshold":0.3,"tickRate":20,"theta":0.9,"collide":false,"paused":false,"model":"auto","edgeLength":30,"linkStrength":1}"#)
    }

    /// The same bytes but for `paramSpecs`, added right after `params`, and the additions of
    /// rooms (`room`, and four limits at the end of `limits`), of access (`role`, `access`) and
    /// of `linkStrength` (the last parameter).
    func testHelloIsWrittenAsBeforeButForParamSpecsAndRooms() {
        var status = LayoutStatus()
        status.tick = 1234
        status.parameters.charge = 12.5
        status.parameters.collide = true
        status.parameters.model = "cells"
        status.pinned = [2, 9]
        let written = String(decoding: ServerMessages.hello(client: "c7", room: .main, clients: 2, standing: Standing(role: .editor, access: .open), status: status, limits: Limits(), events: []),
                             as: UTF8.self)
        let specs = #","paramSpecs":"# + String(decoding: ServerMessages.paramSpecs, as: UTF8.self)
        XCTAssertTrue(written.contains(#""edgeLength":30,"linkStrength":1}"# + specs + #","limits":"#))
        let hello = written.replacingOccurrences(of: specs, with: "")
        XCTAssertEqual(hello, #"{"type":"hello","protocol":1,"client":"c7","room":"main","clients":2,"role":"editor","access":"open","params":{"stiffness":0.02,"charge":12.5,"cellSize":20,"threshold":0.3,"tickRate":20,"theta":0.9,"collide":true,"paused":false,"model":"cells","edgeLength":30,"linkStrength":1},"limits":{"maxCells":100000,"maxAddPerMessage":1000,"maxLinks":200000,"maxMessageBytes":65536,"maxAttrBytes":1024,"replayBuffer":256,"replayBytes":1048576,"historyBytes":33554432,"historySeconds":604800,"historyBatch":1000,"messagesPerSecond":60,"messageBurst":120,"maxEventBacklog":4096,"maxClients":1000,"maxConnections":4096,"maxConnectionsPerAddress":256,"maxQueuedBytes":4194304,"requestTimeout":10,"maxRooms":1000,"roomsPerMinute":30,"maxRoomsPerAddress":250,"maxTotalCells":1000000,"roomIdleSeconds":300,"maxExportsPerAddress":2,"maxExportBytes":268435456,"undoDepth":100},"tick":1234,"settled":true,"pinned":[2,9],"events":[]}"#)
    }

    /// As before rooms, plus `settled` (version 4: cells' `key`, `attrs`, links' `attrs` when set;
    /// version 5: the room's `access`, written only when the room has links or is not open;
    /// version 6: `linkStrength`, and a link's `distance` only when it has its own).
    func testStateFileIsWrittenAsBefore() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wire-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var parameters = Parameters.defaults
        parameters.charge = 12.5
        parameters.collide = true
        parameters.model = "graph"
        parameters.edgeLength = 42.5
        let simulation = Simulation(parameters: parameters, seed: 3)
        simulation.add(count: 2, spawn: .center)
        try StateFile.save(SavedState(layout: simulation.snapshot(), reservation: 1030), to: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), #"{"format":"forcelayout-state","layout":{"cells":[{"id":1,"pinned":false,"x":0,"y":0},{"id":2,"pinned":false,"x":0,"y":0}],"links":[],"nextID":3,"parameters":{"cellSize":20,"charge":12.5,"collide":true,"edgeLength":42.5,"linkStrength":1,"model":"graph","paused":false,"stiffness":0.02,"theta":0.9,"threshold":0.3,"tickRate":20}},"reservation":1030,"settled":false,"version":6}"#)
    }

    func testStateFileValidationUsesTheProtocolRanges() {
        let refused: [(WritableKeyPath<Parameters, Double>, Double, String)] = [
            (\.stiffness, 0, "stiffness 0.0 is outside (0, 1]"), (\.stiffness, 1.5, "stiffness 1.5 is outside (0, 1]"),
            (\.charge, -1, "charge -1.0 is outside [0, 1000]"), (\.charge, 5000, "charge 5000.0 is outside [0, 1000]"),
            (\.cellSize, 0.5, "cellSize 0.5 is outside [1, 200]"), (\.cellSize, .nan, "cellSize nan is outside [1, 200]"),
            (\.threshold, 2e6, "threshold 2000000.0 is outside [0, 1000000]"),
            (\.tickRate, 0, "tickRate 0.0 is outside [1, 120]"), (\.tickRate, .infinity, "tickRate inf is outside [1, 120]"),
            (\.theta, 2.5, "theta 2.5 is outside [0, 2]"),
            (\.edgeLength, 0, "edgeLength 0.0 is outside [1, 1000]"), (\.edgeLength, 1e4, "edgeLength 10000.0 is outside [1, 1000]"),
        ]
        for (path, value, message) in refused {
            var parameters = Parameters.defaults
            parameters[keyPath: path] = value
            XCTAssertEqual(StateFile.validate(parameters), message)
        }
        let bounds: [(WritableKeyPath<Parameters, Double>, [Double])] = [
            (\.stiffness, [.leastNonzeroMagnitude, 1]), (\.charge, [0, 1000]), (\.cellSize, [1, 200]), (\.threshold, [0, 1e6]),
            (\.tickRate, [1, 120]), (\.theta, [0, 2]), (\.edgeLength, [1, 1000]),
        ]
        for (path, values) in bounds {
            for value in values {
                var parameters = Parameters.defaults
                parameters[keyPath: path] = value
                XCTAssertNil(StateFile.validate(parameters), "\(value)")
            }
        }
        for (name, message) in [("", #"model "" is not one of "auto", "cells", "graph""#),
                                ("Graph", #"model "Graph" is not one of "auto", "cells", "graph""#)] {
            var parameters = Parameters.defaults
            parameters.model = name
            XCTAssertEqual(StateFile.validate(parameters), message)
        }
        for name in ["auto", "cells", "graph"] {
            var parameters = Parameters.defaults
            parameters.model = name
            XCTAssertNil(StateFile.validate(parameters), name)
        }
    }
}
