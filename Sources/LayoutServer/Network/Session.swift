import CLibWebSockets
import EventBus
import LayoutCore
import LayoutRooms

/// One WebSocket connection. Owned and touched only by the service thread; the mailbox is
/// what other threads fill.
final class Session {
    let wsi: OpaquePointer
    let client: String
    let room: Room
    /// Speaks `forcelayout.v2`: frames go as binary messages.
    let binaryFrames: Bool
    let peer: String
    let mailbox: Mailbox
    var subscription: Subscription<LayoutEvent>?
    /// Its `moment` requests under way (`HistoryReader`).
    let moments = PendingMoments()
    var bucket: TokenBucket
    /// Waiting for its room, open, closing, close sent (`ConnectionLife`).
    var life: ConnectionLife
    /// The link it came with (checked again whenever the room's access changes).
    var credential: Credential
    /// An owner's secret this connection was given that the room may not hold yet: the room was
    /// made for it (in a cluster, if nobody made it first), or its own `rotate` made a new one.
    /// It replaces `credential` once the room's access has it.
    var pendingOwner: LinkSecret?
    /// Its role and the room's access as it was last told them (nil: before `hello`), and the
    /// version of the room's access they were judged by (`AccessBoard`).
    var standing: Standing?
    var accessVersion = 0

    /// The message being received, possibly over several fragments and callbacks.
    var receiving = false
    var receivingBinary = false
    var received: [UInt8] = []

    /// Whether what waits for it goes out as one `batch` message (its offer asked for batches).
    var batching = false
    /// The newest frame this connection was sent, and its membership version.
    var sentFrameSerial = 0
    var sentVersion = -1
    /// The send buffer set on its socket (`SocketQueue`), 0 before the first.
    var sendBuffer = 0
    /// Whether the next frame waits for the reader to get through what it has (`PeerPacing`).
    var pacing = PeerPacing()
    /// The close status it was closed with, its own or the server's (nil: none yet).
    var closeStatus: UInt16?
    /// Kept alive until the next write: lws may still point into it (permessage-deflate).
    var inFlight: OutgoingMessage?

    init(wsi: OpaquePointer, client: String, room: Room, binaryFrames: Bool, peer: String, mailbox: Mailbox,
         bucket: TokenBucket, life: ConnectionLife, credential: Credential) {
        self.wsi = wsi
        self.client = client
        self.room = room
        self.binaryFrames = binaryFrames
        self.peer = peer
        self.mailbox = mailbox
        self.bucket = bucket
        self.life = life
        self.credential = credential
    }
}

/// Filed by its wsi in the server's `SessionDirectory`.
extension Session: DirectoryEntry {
    var connection: OpaquePointer { wsi }
    var roomName: RoomName { room.name }
}
