import LayoutCore
import Synchronization

/// What a room's next turn answers besides commands, on its stepping thread, between two
/// commands, so the answer is the layout at one point of its event stream:
/// - `data`: a connection that just joined gets the room's `data` message. Every event
///   published before it is already in the mailbox, every later one comes after it, so the
///   message and the events a client gets never disagree.
/// - `export`: the room as node-link JSON or GEXF, handed to `deliver` (`GET /export/…`).
/// - `relayData`: relays have joiners waiting for the `data` message (`RelayRequest.data`);
///   it goes to them through Redis, in the same place among the events.
/// - `releaseDrags`: a connection closed; the cells it was dragging are let go.
/// - `republish`: a cluster's owner whose room Redis forgot (it restarted empty): the state,
///   the frame's copy with its membership, and the status are written anew.
/// - `frameAgain`: a cluster's relay got a v1 client, and the frames so far were published
///   without their text form (no v1 client anywhere): the frame is published again, with it.
/// - `failover`: a cluster's server took the room over from `previous`, and has applied what
///   relays had asked of it and the old owner never took: the clients `leftBehind` (of the
///   server that stopped) leave, then everyone hears the `failover` event and gets the room's
///   data (here and through every relay). It waits while an add waits for its ids, so a
///   client that sent something before the failover has its answer before the event, or never.
package enum TurnRequest: Sendable {
    case data(Mailbox)
    case relayData
    case republish
    case frameAgain
    case export(LayoutExport.Format, deliver: @Sendable ([UInt8]) -> Void)
    /// A connection closed: the cells it held by dragging are released (`releaseDrags`).
    case releaseDrags(client: String)
    case failover(node: String, previous: String, leftBehind: [String])
}

/// A room's requests waiting for its next turn. Whoever pushes also wakes the room.
package final class TurnRequests: Sendable {
    private let items = Mutex<[TurnRequest]>([])

    package func push(_ request: TurnRequest) {
        items.withLock { $0.append(request) }
    }

    var isEmpty: Bool { items.withLock { $0.isEmpty } }

    func drain() -> [TurnRequest] {
        items.withLock { items in
            defer { items.removeAll() }
            return items
        }
    }
}
