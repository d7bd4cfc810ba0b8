import XCTest
@testable import LayoutCore

/// Every path of a room's claim, with no Redis and no clock: the replies and timers are inputs.
final class RoomClaimTests: XCTestCase {
    func testARoomPlacedHereIsClaimedAndSteppedHere() {
        var (claim, actions) = RoomClaim.start(here: "a", placedOn: "a")
        XCTAssertEqual(actions, [.takeLease])
        XCTAssertEqual(claim.leaseReplied(.taken, gone: false), [.won(previous: nil)])
        XCTAssertEqual(claim.phase, .owning)
        XCTAssertEqual(claim.renewReplied(.renewed), [.takeRequests])
        XCTAssertEqual(claim.renewReplied(.retaken), [.republish])
        XCTAssertEqual(claim.leave(), [.giveLeaseBack], "the lease goes back when the room leaves")
        XCTAssertEqual(claim.phase, .ended)
    }

    func testARoomPlacedElsewhereIsRelayedAndClaimedHereIfThatServerDoesNotTakeIt() {
        var (claim, actions) = RoomClaim.start(here: "a", placedOn: "b")
        XCTAssertEqual(actions, [.askToAdopt(target: "b")])
        XCTAssertEqual(claim.adoptionReplied(.asked, gone: false), [.relay(owner: "b"), .armFallback(after: 2)])
        XCTAssertEqual(claim.fallbackDue(mirrorLive: true, gone: false), [], "b took it: the relay is live")
        XCTAssertEqual(claim.phase, .relaying(owner: "b", fallback: false))

        var late = RoomClaim.start(here: "a", placedOn: "b").0
        _ = late.adoptionReplied(.asked, gone: false)
        XCTAssertEqual(late.fallbackDue(mirrorLive: false, gone: false), [.takeLease], "b never showed")
        XCTAssertEqual(late.leaseReplied(.taken, gone: false), [.won(previous: nil)])
    }

    func testAFallbackThatFindsTheLeaseTakenKeepsItsRelay() {
        var claim = RoomClaim.start(here: "a", placedOn: "b").0
        _ = claim.adoptionReplied(.asked, gone: false)
        _ = claim.fallbackDue(mirrorLive: false, gone: false)
        XCTAssertEqual(claim.leaseReplied(.heldBy("b"), gone: false), [], "b took it after all: no second relay")
        XCTAssertEqual(claim.phase, .relaying(owner: "b", fallback: false))
    }

    func testAPlacementThatFindsAnOwnerOrNobodyListening() {
        var owned = RoomClaim.start(here: "a", placedOn: "b").0
        XCTAssertEqual(owned.adoptionReplied(.ownedBy("c"), gone: false), [.unplace, .relay(owner: "c")])
        var deserted = RoomClaim.start(here: "a", placedOn: "b").0
        XCTAssertEqual(deserted.adoptionReplied(.nobodyListening, gone: false), [.takeLease], "b is gone: claimed here")
        var unreachable = RoomClaim.start(here: "a", placedOn: "b").0
        XCTAssertEqual(unreachable.adoptionReplied(.failed, gone: false), [.takeLease])
        var left = RoomClaim.start(here: "a", placedOn: "b").0
        XCTAssertEqual(left.adoptionReplied(.asked, gone: true), [], "the room left meanwhile: no relay, no fallback")
        XCTAssertEqual(left.phase, .ended)
    }

    func testRedisAwayDuringAClaimRetriesUntilTheRoomLeaves() {
        var claim = RoomClaim.adopted().0
        XCTAssertEqual(claim.leaseReplied(.failed, gone: false), [.takeLeaseAgain(after: 0.5)])
        XCTAssertEqual(claim.retryDue(gone: false), [.takeLease])
        XCTAssertEqual(claim.leaseReplied(.failed, gone: false), [.takeLeaseAgain(after: 0.5)])
        XCTAssertEqual(claim.retryDue(gone: true), [])
        XCTAssertEqual(claim.phase, .ended)
        XCTAssertEqual(claim.leaseReplied(.taken, gone: false), [], "a late answer to an ended claim does nothing")
    }

    /// Two servers claim one new room at once; Redis's SET NX lets one through. The other relays
    /// the winner, and stands by to take the room over if the winner stops.
    func testTwoServersRacingForOneRoomEndWithOneOwnerAndOneRelay() {
        var holder: String?
        func setNX(_ node: String) -> RoomClaim.LeaseReply {
            if holder == nil { holder = node }
            return holder == node ? .taken : .heldBy(holder)
        }
        var a = RoomClaim.adopted().0, b = RoomClaim.adopted().0
        let bActions = b.leaseReplied(setNX("b"), gone: false)
        let aActions = a.leaseReplied(setNX("a"), gone: false)
        XCTAssertEqual(bActions, [.won(previous: nil)])
        XCTAssertEqual(aActions, [.unplace, .relay(owner: "b")])
        XCTAssertEqual(b.phase, .owning)
        XCTAssertEqual(a.phase, .relaying(owner: "b", fallback: false))
        // b stops renewing; its lease expires and a's takeover takes it.
        XCTAssertEqual(a.takeoverReplied(took: false, relayedFrom: "b"), [], "b still holds it")
        XCTAssertEqual(a.takeoverReplied(took: true, relayedFrom: "b"), [.won(previous: "b")])
        XCTAssertEqual(a.phase, .owning)
        // b comes back: its renewal finds a's lease, and its room stops there.
        XCTAssertEqual(b.renewReplied(.heldElsewhere), [.stop])
        XCTAssertEqual(b.leaseLost(), [], "said once")
        XCTAssertEqual(b.leave(), [], "a lost lease is not given back")
    }

    func testALeaseLostWhileOwnedStopsTheRoomOnce() {
        var claim = RoomClaim.adopted().0
        _ = claim.leaseReplied(.taken, gone: false)
        XCTAssertEqual(claim.leaseLost(), [.stop])
        XCTAssertEqual(claim.renewReplied(.renewed), [], "nothing after it ended")
        XCTAssertEqual(claim.leaseLost(), [])
    }

    func testALeaseTakenByAnotherDuringAClaimRelaysIt() {
        var claim = RoomClaim.adopted().0
        XCTAssertEqual(claim.leaseReplied(.heldBy("c"), gone: false), [.unplace, .relay(owner: "c")])
        XCTAssertEqual(claim.leaseLost(), [], "a relay holds no lease to lose")
        XCTAssertEqual(claim.leave(), [])
        var unknown = RoomClaim.adopted().0
        XCTAssertEqual(unknown.leaseReplied(.heldBy(nil), gone: false), [.unplace, .relay(owner: "")],
                       "a holder Redis does not name is relayed as unknown")
    }

    func testATakeoverAfterTheRoomLeftGivesTheLeaseBack() {
        var claim = RoomClaim.relayed(from: "b")
        XCTAssertEqual(claim.takeoverReplied(took: true, relayedFrom: nil), [.giveLeaseBack])
        XCTAssertEqual(claim.phase, .ended)
        var unknownOwner = RoomClaim.relayed(from: "")
        XCTAssertEqual(unknownOwner.takeoverReplied(took: true, relayedFrom: ""), [.won(previous: nil)])
    }

    func testATakeoverWhileAFallbackClaimIsOutWinsAndTheClaimsAnswerIsIgnored() {
        var claim = RoomClaim.start(here: "a", placedOn: "b").0
        _ = claim.adoptionReplied(.asked, gone: false)
        _ = claim.fallbackDue(mirrorLive: false, gone: false)
        XCTAssertEqual(claim.takeoverReplied(took: true, relayedFrom: "b"), [.won(previous: "b")])
        XCTAssertEqual(claim.leaseReplied(.taken, gone: false), [], "stepped once")
    }

    func testTimersAndAnswersForAnotherPhaseChangeNothing() {
        var claim = RoomClaim.adopted().0
        XCTAssertEqual(claim.fallbackDue(mirrorLive: false, gone: false), [])
        XCTAssertEqual(claim.adoptionReplied(.asked, gone: false), [])
        XCTAssertEqual(claim.renewReplied(.renewed), [], "no lease to renew while claiming")
        XCTAssertEqual(claim.phase, .claiming(relayed: nil))
    }
}
