import LayoutCore
import LayoutRooms
import Synchronization

/// One room's claim (`RoomClaim`) and the room it is for (nil: known by name only, a relayed
/// room taken over). Each attempt has its own: an answer that comes after the room left feeds
/// the claim it was for, never a later one of the same name.
final class ClaimBox: Sendable {
    let room: Room?
    private let claim: Mutex<RoomClaim>

    init(_ claim: RoomClaim, for room: Room?) {
        self.room = room
        self.claim = Mutex(claim)
    }

    func advance(_ input: (inout RoomClaim) -> [RoomClaim.Action]) -> [RoomClaim.Action] {
        claim.withLock { input(&$0) }
    }

    var phase: RoomClaim.Phase { claim.withLock { $0.phase } }
}
