import Synchronization

/// Exports a room's turn has written (`TurnRequest.export`), waiting for the service thread,
/// which it wakes: the documents by request token.
final class ReadyExports: Sendable {
    private let ready = Mutex<[(token: Int, body: [UInt8])]>([])
    private let waker = Mutex<ServiceWaker?>(nil)

    func attach(_ serviceWaker: ServiceWaker) { waker.withLock { $0 = serviceWaker } }

    func deliver(_ body: [UInt8], token: Int) {
        ready.withLock { $0.append((token, body)) }
        waker.withLock { $0?.wake() }
    }

    func take() -> [(token: Int, body: [UInt8])] {
        ready.withLock { ready in
            defer { ready.removeAll() }
            return ready
        }
    }
}
