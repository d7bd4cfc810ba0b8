import EventBus
import ForceLayout
import XCTest
@testable import LayoutCore

/// A `failover` event says the state the room went on from: its pins and its parameters (a
/// change made just before may not have reached it), on the wire and read back from a history.
final class FailoverEventTests: XCTestCase {
    private func wire(_ parameters: Parameters?) -> [UInt8] {
        let event = LayoutEvent(kind: .failover, by: nil, tick: 9,
                                detail: .failover(node: "b", previous: "a", pinned: [4, 2], parameters: parameters), at: 1000)
        return ServerMessages.event(Envelope(seq: 12, event: event))
    }

    func testItCarriesTheParametersWholeAndTheyReadBack() throws {
        var parameters = Parameters()
        parameters.charge = 42
        parameters.paused = true
        let bytes = wire(parameters)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let params = try XCTUnwrap(object["params"] as? [String: Any])
        XCTAssertEqual(params["charge"] as? Double, 42)
        XCTAssertEqual(params["paused"] as? Bool, true)
        XCTAssertEqual(Set(params.keys), Set(Parameters.table.map(\.name)), "the whole set, as a params event has it")
        XCTAssertEqual(object["pinned"] as? [Int], [4, 2])

        let read = try XCTUnwrap(HistoryEventReading.envelope(bytes[...]))
        XCTAssertEqual(read.seq, 12)
        guard case .failover(let node, let previous, let pinned, let back) = read.event.detail else { return XCTFail("\(read.event.detail)") }
        XCTAssertEqual(node, "b")
        XCTAssertEqual(previous, "a")
        XCTAssertEqual(pinned, [4, 2])
        XCTAssertEqual(back, parameters)
    }

    func testOneWrittenBeforeFailoversCarriedThemReadsWithNone() throws {
        let bytes = wire(nil)
        XCTAssertFalse(String(decoding: bytes, as: UTF8.self).contains("params"))
        let read = try XCTUnwrap(HistoryEventReading.envelope(bytes[...]))
        guard case .failover(_, _, _, let parameters) = read.event.detail else { return XCTFail("\(read.event.detail)") }
        XCTAssertNil(parameters)
    }
}
