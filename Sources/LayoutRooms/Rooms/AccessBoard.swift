import LayoutCore
import Synchronization

/// A room's access as its stepping thread last published it (`RoomLayout`), for the service
/// thread: handshakes are judged by it, and its `version` tells the service thread when to
/// judge the room's connections again (the owner changed the mode, or rotated links).
package final class AccessBoard: Sendable {
    private let box = Mutex<(access: RoomAccess, version: Int)>((.unowned, 0))

    package init() {}

    package var current: (access: RoomAccess, version: Int) { box.withLock { $0 } }

    /// Takes `access`; false when it is what the board holds already.
    @discardableResult
    package func publish(_ access: RoomAccess) -> Bool {
        box.withLock { board in
            guard board.version == 0 || board.access != access else { return false }
            board = (access, board.version + 1)
            return true
        }
    }
}
