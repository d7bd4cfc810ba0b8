import ForceLayout
import XCTest
@testable import LayoutCore

final class MessageDecoderTests: XCTestCase {
    private let decoder = MessageDecoder(limits: Limits())

    private func decode(_ text: String) -> Result<ClientRequest, ProtocolError> {
        decoder.decode(Array(text.utf8))
    }

    private func message(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ClientMessage? {
        switch decode(text) {
        case .success(let request): return request.message
        case .failure(let error):
            XCTFail("\(text) rejected: \(error)", file: file, line: line)
            return nil
        }
    }

    private func assertError(_ text: String, _ code: ProtocolError.Code, containing fragment: String = "",
                             file: StaticString = #filePath, line: UInt = #line) {
        switch decode(text) {
        case .success(let request): XCTFail("\(text) accepted as \(request)", file: file, line: line)
        case .failure(let error):
            XCTAssertEqual(error.code, code, "\(text): \(error.message)", file: file, line: line)
            if !fragment.isEmpty {
                XCTAssertTrue(error.message.contains(fragment), "\(error.message) lacks \(fragment)", file: file, line: line)
            }
        }
    }

    func testAdd() {
        XCTAssertEqual(message(#"{"type":"add"}"#), .layout(.add(count: 1, spawn: .random)))
        XCTAssertEqual(message(#"{"type":"add","count":5,"spawn":"center"}"#), .layout(.add(count: 5, spawn: .center)))
        XCTAssertEqual(message(#"{"type":"add","count":5.0,"spawn":"border"}"#), .layout(.add(count: 5, spawn: .border)))
        XCTAssertEqual(message(#"{"type":"add","spawn":{"x":1.5,"y":-2}}"#), .layout(.add(count: 1, spawn: .point(x: 1.5, y: -2))))
        assertError(#"{"type":"add","count":1001}"#, .limit, containing: "maxAddPerMessage")
        assertError(#"{"type":"add","count":0}"#, .badRequest)
        assertError(#"{"type":"add","count":-3}"#, .badRequest)
        assertError(#"{"type":"add","count":2.5}"#, .badRequest)
        assertError(#"{"type":"add","count":"5"}"#, .badRequest)
        assertError(#"{"type":"add","count":1e400}"#, .badRequest)
        assertError(#"{"type":"add","spawn":"left"}"#, .badRequest)
        assertError(#"{"type":"add","spawn":{"x":1}}"#, .badRequest)
        assertError(#"{"type":"add","spawn":{"x":1,"y":2,"z":3}}"#, .badRequest, containing: "z")
        assertError(#"{"type":"add","spawn":{"x":1e400,"y":2}}"#, .badRequest)
        assertError(#"{"type":"add","cont":5}"#, .badRequest, containing: "cont")
    }

    func testRemoveAndClear() {
        XCTAssertEqual(message(#"{"type":"remove","ids":[3,1,2]}"#), .layout(.remove(ids: [3, 1, 2])))
        XCTAssertEqual(message(#"{"type":"remove","count":4}"#), .layout(.removeNewest(count: 4)))
        XCTAssertEqual(message(#"{"type":"clear"}"#), .layout(.clear))
        assertError(#"{"type":"remove"}"#, .badRequest)
        assertError(#"{"type":"remove","ids":[1],"count":1}"#, .badRequest)
        assertError(#"{"type":"remove","ids":[]}"#, .badRequest)
        assertError(#"{"type":"remove","ids":[0]}"#, .badRequest)
        assertError(#"{"type":"remove","ids":[1.5]}"#, .badRequest)
        assertError(#"{"type":"remove","ids":["1"]}"#, .badRequest)
        assertError(#"{"type":"remove","ids":5}"#, .badRequest)
        assertError(#"{"type":"clear","all":true}"#, .badRequest)
    }

    func testParams() {
        var change = ParameterChange()
        change.charge = 20
        change.collide = true
        XCTAssertEqual(message(#"{"type":"params","charge":20,"collide":true}"#), .layout(.params(change)))
        assertError(#"{"type":"params"}"#, .badRequest)
        assertError(#"{"type":"params","charge":1001}"#, .badRequest, containing: "charge")
        assertError(#"{"type":"params","stiffness":0}"#, .badRequest, containing: "(0, 1]")
        assertError(#"{"type":"params","stiffness":1e400}"#, .badRequest)
        assertError(#"{"type":"params","tickRate":0.5}"#, .badRequest)
        assertError(#"{"type":"params","theta":"0.5"}"#, .badRequest)
        assertError(#"{"type":"params","paused":1}"#, .badRequest)
        assertError(#"{"type":"params","gravity":1}"#, .badRequest, containing: "unknown parameter")
        assertError(#"{"type":"params","charge":5,"gravity":1}"#, .badRequest)
    }

    func testParamsChoice() {
        var change = ParameterChange()
        change.model = "graph"
        change.edgeLength = 45
        XCTAssertEqual(message(#"{"type":"params","model":"graph","edgeLength":45}"#), .layout(.params(change)))
        assertError(#"{"type":"params","model":"force"}"#, .badRequest, containing: #"model must be one of "auto", "cells", "graph", not "force""#)
        assertError(#"{"type":"params","model":true}"#, .badRequest, containing: #"one of "auto", "cells", "graph", not true"#)
        assertError(#"{"type":"params","model":{"name":"graph"}}"#, .badRequest, containing: "not an object")
        // A long bad name is quoted cut short, not echoed whole.
        guard case .failure(let error) = decode(#"{"type":"params","model":""# + String(repeating: "g", count: 5000) + #""}"#) else {
            return XCTFail("accepted")
        }
        XCTAssertLessThan(error.message.utf8.count, 120, error.message)
        // All or nothing: a valid value beside a bad option is not applied either.
        assertError(#"{"type":"params","charge":12,"model":"cell"}"#, .badRequest, containing: "model")
    }

    func testParameterChangeReportsOnlyWhatDiffers() {
        var change = ParameterChange()
        change.charge = 10
        change.stiffness = 0.5
        let (parameters, changed) = change.applied(to: .defaults)
        XCTAssertEqual(changed, ["stiffness"])
        XCTAssertEqual(parameters.stiffness, 0.5)
    }

    func testPinUnpin() {
        XCTAssertEqual(message(#"{"type":"pin","id":7,"x":1,"y":2}"#), .layout(.pin(id: 7, x: 1, y: 2)))
        XCTAssertEqual(message(#"{"type":"unpin","id":7}"#), .layout(.unpin(id: 7)))
        XCTAssertEqual(message(#"{"type":"pin","id":7,"x":1,"y":2,"drag":true}"#), .layout(.pin(id: 7, x: 1, y: 2, drag: true)))
        XCTAssertEqual(message(#"{"type":"pin","id":7,"x":1,"y":2,"drag":false}"#), .layout(.pin(id: 7, x: 1, y: 2)))
        assertError(#"{"type":"pin","id":7,"x":1}"#, .badRequest)
        assertError(#"{"type":"pin","id":-7,"x":1,"y":2}"#, .badRequest)
        assertError(#"{"type":"pin","id":7,"x":null,"y":2}"#, .badRequest)
        assertError(#"{"type":"unpin"}"#, .badRequest)
    }

    func testSubscribeAndReplay() {
        XCTAssertEqual(message(#"{"type":"subscribe"}"#), .subscribe(.all))
        XCTAssertEqual(message(#"{"type":"subscribe","kinds":"all"}"#), .subscribe(.all))
        XCTAssertEqual(message(#"{"type":"subscribe","kinds":["added","params"]}"#), .subscribe(.only([.added, .params])))
        XCTAssertEqual(message(#"{"type":"replay","count":10}"#), .replay(count: 10, kinds: .all))
        XCTAssertEqual(message(#"{"type":"replay","count":256,"kinds":["settled"]}"#), .replay(count: 256, kinds: .only([.settled])))
        assertError(#"{"type":"subscribe","kinds":["exploded"]}"#, .badRequest, containing: "exploded")
        assertError(#"{"type":"subscribe","kinds":"some"}"#, .badRequest)
        assertError(#"{"type":"replay"}"#, .badRequest)
        assertError(#"{"type":"replay","count":0}"#, .badRequest)
        assertError(#"{"type":"replay","count":257}"#, .badRequest)
    }

    func testMomentsSayTheDataHeldAndWhetherAPatchIsTaken() {
        XCTAssertEqual(message(#"{"type":"moment","at":5}"#), .moment(at: 5, have: nil, patch: false))
        XCTAssertEqual(message(#"{"type":"moment","at":5,"have":9}"#), .moment(at: 5, have: 9, patch: false))
        XCTAssertEqual(message(#"{"type":"moment","at":5,"have":9,"patch":true}"#), .moment(at: 5, have: 9, patch: true))
        assertError(#"{"type":"moment","at":5,"patch":"yes"}"#, .badRequest, containing: "patch")
        assertError(#"{"type":"moment","have":9}"#, .badRequest, containing: "needs at")
        // as a client writes it (`forcelayout import`, the fuzzer), decoded again the same
        let request = ClientRequest(.moment(at: 5, have: 9, patch: true))
        XCTAssertEqual(message(String(decoding: request.encoded, as: UTF8.self)), .moment(at: 5, have: 9, patch: true))
    }

    func testEnvelopeErrors() {
        assertError("not json", .badJSON)
        assertError("", .badJSON)
        assertError("[1,2]", .badJSON)
        assertError("42", .badJSON)
        assertError(#"{"type":"add","type":"add"}"#, .badJSON, containing: "duplicate")
        assertError(#"{"count":1}"#, .unknownType)
        assertError(#"{"type":5}"#, .unknownType)
        assertError(#"{"type":"explode"}"#, .unknownType)
        assertError(#"{"type":"add","ref":5}"#, .badRequest)
        assertError(#"{"type":"add","ref":"\#(String(repeating: "r", count: 65))"}"#, .badRequest)
    }

    func testRefIsEchoedInErrors() {
        guard case .failure(let error) = decode(#"{"type":"params","charge":-1,"ref":"a1"}"#) else { return XCTFail() }
        XCTAssertEqual(error.ref, "a1")
        guard case .success(let request) = decode(#"{"ref":"b2","type":"clear"}"#) else { return XCTFail() }
        XCTAssertEqual(request.ref, "b2")
    }
}

/// `point`: any role, a cell id or null, an optional display name.
final class PointMessageTests: XCTestCase {
    private let decoder = MessageDecoder(limits: Limits())

    private func decode(_ text: String) -> Result<ClientRequest, ProtocolError> { decoder.decode(Array(text.utf8)) }

    func testPointsDecodeAndWriteBack() throws {
        let cases: [(String, ClientMessage)] = [
            (#"{"type":"point","id":5}"#, .layout(.point(id: 5, name: nil))),
            (#"{"type":"point","id":5.0,"name":"  Ana "}"#, .layout(.point(id: 5, name: "Ana"))),
            (#"{"type":"point","id":null}"#, .layout(.point(id: nil, name: nil))),
            (#"{"type":"point","id":null,"name":null}"#, .layout(.point(id: nil, name: nil))),
        ]
        for (text, expected) in cases {
            let request = try decode(text).get()
            XCTAssertEqual(request.message, expected, text)
            XCTAssertEqual(try decode(String(decoding: request.encoded, as: UTF8.self)).get(), request, text)
        }
        XCTAssertEqual(String(decoding: ClientRequest(.layout(.point(id: 5, name: "Ana")), ref: "p").encoded, as: UTF8.self),
                       #"{"type":"point","id":5,"name":"Ana","ref":"p"}"#)
        XCTAssertEqual(ClientMessage.layout(.point(id: 5, name: nil)).requiredRole, .viewer)
        XCTAssertTrue(ClientMessage.layout(.point(id: nil, name: nil)).needsRoom)
        XCTAssertFalse(ClientMessage.subscribe(.all).needsRoom)
        XCTAssertEqual(ClientMessage.layout(.point(id: nil, name: nil)).kindName, "point")
    }

    func testBadPointsAreRefused() {
        for (text, fragment) in [
            (#"{"type":"point"}"#, "needs id"),
            (#"{"type":"point","id":0}"#, "point.id"),
            (#"{"type":"point","id":-1}"#, "point.id"),
            (#"{"type":"point","id":2.5}"#, "point.id"),
            (#"{"type":"point","id":"3"}"#, "point.id"),
            (#"{"type":"point","id":3,"name":""}"#, "blank"),
            (#"{"type":"point","id":3,"name":"123456789012345678901234567890123"}"#, "32"),
            (#"{"type":"point","id":3,"name":"a\u0000"}"#, "control"),
            (#"{"type":"point","id":3,"name":["Ana"]}"#, "string"),
            (#"{"type":"point","id":3,"at":1}"#, "unknown field"),
        ] {
            guard case .failure(let error) = decode(text) else { XCTFail("\(text) accepted"); continue }
            XCTAssertEqual(error.code, .badRequest, text)
            XCTAssertTrue(error.message.contains(fragment), "\(error.message) lacks \(fragment)")
        }
    }

    /// A `point` is checked against the layout (a cell that is not there is refused as other
    /// commands refuse it) and changes nothing of it.
    func testAPointIsCheckedAgainstTheLayoutAndChangesIt() throws {
        let simulation = Simulation(seed: 1)
        simulation.add(count: 2, spawn: .random)
        var state = LayoutState(simulation: simulation, limits: Limits())
        XCTAssertEqual(try state.pointer(for: .point(id: 2, name: "A"), from: "c1"), Pointer(client: "c1", name: "A", id: 2))
        XCTAssertEqual(try state.pointer(for: .point(id: nil, name: nil), from: "c1"), Pointer(client: "c1", id: nil))
        XCTAssertNil(try state.pointer(for: .clear, from: "c1"))
        XCTAssertThrowsError(try state.pointer(for: .point(id: 3, name: nil), from: "c1")) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .badRequest)
        }
        XCTAssertEqual(try state.apply(.point(id: 2, name: nil), from: "c1"), [])
    }
}
