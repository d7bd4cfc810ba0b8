import Foundation
import XCTest
@testable import LayoutCore

final class MessageBatchTests: XCTestCase {
    func testAnOfferAsksForBatchesByOneMoreName() {
        XCTAssertTrue(MessageBatch.asked(inOffer: "forcelayout.v2, forcelayout.v1, forcelayout.batch"))
        XCTAssertTrue(MessageBatch.asked(inOffer: "forcelayout.batch,forcelayout.v1"))
        XCTAssertTrue(MessageBatch.asked(inOffer: "forcelayout.v1,\tforcelayout.batch "))
        XCTAssertFalse(MessageBatch.asked(inOffer: nil))
        XCTAssertFalse(MessageBatch.asked(inOffer: ""))
        XCTAssertFalse(MessageBatch.asked(inOffer: "forcelayout.v2, forcelayout.v1"))
        XCTAssertFalse(MessageBatch.asked(inOffer: "forcelayout.batches, forcelayout.v1"))
        XCTAssertFalse(MessageBatch.asked(inOffer: "forcelayout.key.forcelayout.batch, forcelayout.v1"))
        // It is no subprotocol: an offer of it alone names none this server speaks.
        guard case .refused = SubprotocolOffer(header: "forcelayout.batch") else { return XCTFail("accepted") }
        XCTAssertEqual(SubprotocolOffer(header: "forcelayout.batch, forcelayout.v2"), .chosen(.v2))
    }

    func testABatchIsTheMessagesAsTheyWouldHaveComeInOrder() throws {
        let texts = [#"{"type":"event","seq":1}"#, #"{"type":"pointer","client":"c1","id":null}"#, #"{"type":"stats","cells":0}"#]
        let batch = MessageBatch.joined(texts.map { OutgoingMessage(Array($0.utf8)) })
        XCTAssertFalse(batch.isBinary)
        XCTAssertEqual(batch.text, #"{"type":"batch","messages":["# + texts.joined(separator: ",") + "]}")
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(batch.bytes)) as? [String: Any])
        XCTAssertEqual((parsed["messages"] as? [[String: Any]])?.map { $0["type"] as? String }, ["event", "pointer", "stats"])
        let alone = OutgoingMessage(Array(texts[0].utf8))
        XCTAssertTrue(MessageBatch.joined([alone]) === alone, "one message goes as it is")
        XCTAssertFalse(MessageBatch.admits(OutgoingMessage([1, 2], binary: true)))
    }
}
