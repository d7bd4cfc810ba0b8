import XCTest
@testable import LayoutCore

final class SubprotocolOfferTests: XCTestCase {
    func testNoOfferGetsTheDefault() {
        XCTAssertEqual(SubprotocolOffer(header: nil), .none)
        XCTAssertEqual(SubprotocolOffer(header: ""), .none)
        XCTAssertEqual(SubprotocolOffer(header: " , ,"), .none)
    }

    func testTheFirstSpokenNameOfTheOfferIsChosen() {
        XCTAssertEqual(SubprotocolOffer(header: "forcelayout.v2, forcelayout.v1"), .chosen(.v2))
        XCTAssertEqual(SubprotocolOffer(header: "chat,forcelayout.v1,forcelayout.v2"), .chosen(.v1))
        XCTAssertEqual(SubprotocolOffer(header: "\tforcelayout.v2 ,, chat "), .chosen(.v2))
        let seven = (0..<7).map { "p\($0)" }.joined(separator: ",")
        XCTAssertEqual(SubprotocolOffer(header: seven + ",forcelayout.v1"), .chosen(.v1))
    }

    func testOffersNobodySpeaksAreRefused() {
        for offer in ["chat", "chat, superchat", "FORCELAYOUT.V1", "forcelayout.v3"] {
            guard case .refused(let reason, _) = SubprotocolOffer(header: offer) else { return XCTFail(offer) }
            XCTAssertTrue(reason.hasPrefix("unknown subprotocol"), offer)
        }
    }

    func testMalformedLongAndCrowdedOffersAreRefused() {
        let cases: [(String, String)] = [
            ("forcelayout.v1 x", "malformed"), ("a/b, forcelayout.v1", "malformed"), ("forcelayout.v1;q=1", "malformed"),
            ("\"forcelayout.v1\"", "malformed"), ("é, forcelayout.v1", "malformed"),
            (String(repeating: "x", count: 64) + ",forcelayout.v1", "malformed"),
            ((0..<9).map { "p\($0)" }.joined(separator: ",") + ",forcelayout.v1", "too many"),
            (Array(repeating: "a", count: 200).joined(separator: ","), "too long"),
        ]
        for (offer, expected) in cases {
            guard case .refused(let reason, let detail) = SubprotocolOffer(header: offer) else { return XCTFail(offer) }
            XCTAssertTrue(reason.contains(expected), "\(offer): \(reason)")
            XCTAssertFalse(reason.contains("\""), "the response's text holds nothing of the client's: \(reason)")
            XCTAssertFalse(detail.isEmpty)
        }
    }

    func testTheLimitsMatchWhatLibwebsocketsCanHold() {
        // lws copies the offer into 128 bytes (127 and a NUL) and each name into 64.
        XCTAssertEqual(SubprotocolOffer.maxBytes, 127)
        XCTAssertEqual(SubprotocolOffer.maxNameBytes, 63)
        let longest = String(repeating: "x", count: 63) + ",forcelayout.v1"
        XCTAssertEqual(SubprotocolOffer(header: longest), .chosen(.v1))
    }
}
