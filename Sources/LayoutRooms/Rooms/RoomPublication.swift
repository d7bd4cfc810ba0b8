import LayoutCore

/// What a room publishes beside its events (which go on its bus) for whoever listens to it
/// from outside this server: a frame with the parts it was written from, that its status
/// changed, a `data` answer for joiners elsewhere, or that what was published may have been
/// lost. The layout's turn publishes (`Room.publish`) without knowing who listens; in a
/// cluster the owner's replicator does (`RoomListener`), and nobody does otherwise.
package enum RoomPublication {
    /// A frame, the membership parts of its two forms (`FrameEncoder`, `BinaryFrameEncoder`)
    /// and where the text form's membership goes; `nextDueIn`: nanoseconds to the next frame
    /// (0: the room stopped stepping).
    case frame(PublishedFrame, textHead: Int, textMembership: [UInt8], binaryMembership: [UInt8], nextDueIn: UInt64)
    /// The status changed with no frame (a parameter of a paused room, a client came or went).
    case status
    /// The room's `data` message (nil: it has none) for the joiners waiting elsewhere, or for
    /// every client elsewhere (`everyone`: after a failover).
    case dataAnswer([UInt8]?, everyone: Bool)
    /// What was published may be lost (Redis restarted empty): the next frame carries everything.
    case sendAgain
    /// The room's access, when it changed (and first): before the `access` event on the bus.
    case access(RoomAccess)
    /// The room's pointers changed: `sent`, the `pointer` messages its clients here got (nil:
    /// none, the whole set `all` goes out instead), and `all`, every pointer now.
    case pointers(sent: [Pointer]?, all: [Pointer])
}

/// Hears what a room publishes (`RoomPublication`), on the thread that publishes it.
package protocol RoomListener: Sendable {
    func published(_ publication: RoomPublication, by room: Room)
}
