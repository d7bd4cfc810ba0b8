import LayoutCore
import Synchronization

/// What other threads hand the service thread, and the wake-up (`lws_cancel_service`) that
/// makes it look: exports a room's turn wrote (`ReadyExports`), what the cluster's threads
/// learned (`ClusterNotices`).
package final class ServiceQueue<Item: Sendable>: Sendable {
    package init() {}

    private let items = Mutex<[Item]>([])
    private let waker = Mutex<ServiceWaker?>(nil)

    package func attach(_ serviceWaker: ServiceWaker) { waker.withLock { $0 = serviceWaker } }

    /// No more wake-ups (the context is about to go): a thread that posts late wakes nothing.
    package func detach() { waker.withLock { $0 = nil } }

    package func post(_ item: Item) {
        items.withLock { $0.append(item) }
        waker.withLock { $0?.wake() }
    }

    package func take() -> [Item] {
        items.withLock { items in
            defer { items.removeAll() }
            return items
        }
    }
}

/// Exports written by a room's turn (`TurnRequest.export`) or read from Redis in a cluster,
/// by request token.
package typealias ReadyExports = ServiceQueue<(token: Int, arrival: ExportArrival)>

/// What an export's request gets: its document, no such room (404), or a room its link does
/// not open (`RoomAccess.exportVerdict`: 404 or 403).
package enum ExportArrival: Sendable {
    case document([UInt8])
    case missing
    case denied(RoomAccess.ExportVerdict)
}
