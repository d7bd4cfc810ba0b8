import Dispatch
import LayoutCore
import Logging
import Synchronization

/// Where a server keeps its client numbers' reservation (`ClientNumbering`): a file in its
/// state directory (`ClientReservationFile`), or its key in a cluster's Redis (LayoutCluster's
/// `ClientReservationKey`). Called on a thread of its own (a write may take a while).
package protocol ClientReservationStore: Sendable {
    /// The reservation stored (nil: none yet).
    func read() throws(StoreFailure) -> Int?
    /// Stores `reservation` durably (never lower than what it holds).
    func write(_ reservation: Int) throws(StoreFailure)
}

package struct StoreFailure: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}

/// Client ids' numbers for the service thread (`take`), with the reservation written ahead on
/// a queue of its own, so a connection does not wait for a disk or Redis. Only one that would
/// cross the durable reservation (a burst of half a block of connections faster than one write)
/// waits for the write of the next block, behind any write under way: its number is on record
/// before its `hello`. A store that fails is not waited for again for `retrySeconds` (numbers
/// then go past the reservation, and the log says so once).
package final class ClientNumbers: Sendable {
    private struct State {
        var numbering: ClientNumbering
        var writing = false
        var saidBeyond = false
        /// Uptime seconds before which a number crossing the reservation does not wait.
        var waitAfter = 0.0
    }
    private let state: Mutex<State>
    private let store: (any ClientReservationStore)?
    private let logger: Logger
    private let queue = DispatchQueue(label: "forcelayout.client-numbers")
    static let retrySeconds = 5.0

    /// No store: numbers start at 1 (nothing is restored, so no cell names an older client).
    package init(logger: Logger) {
        state = Mutex(State(numbering: ClientNumbering()))
        store = nil
        self.logger = logger
    }

    /// Reads the store and writes the first block's reservation before any number is handed
    /// out; fails when either cannot be done (numbers could repeat).
    package init(store: any ClientReservationStore, logger: Logger, block: Int = 1024) throws(StoreFailure) {
        var numbering = ClientNumbering(stored: try store.read(), block: block)
        if let first = numbering.initialWrite() {
            try store.write(first)
            numbering.confirm(first)
        }
        state = Mutex(State(numbering: numbering))
        self.store = store
        self.logger = logger
    }

    /// The next number (service thread).
    package func take() -> Int {
        let now = Uptime.seconds()
        let (number, write, wait) = state.withLock { state -> (Int, Int?, Bool) in
            let (number, wanted) = state.numbering.take()
            guard let wanted else { return (number, nil, false) }
            if state.numbering.beyondReservation, now >= state.waitAfter { return (number, wanted, true) }
            guard !state.writing else { return (number, nil, false) }
            state.writing = true
            return (number, wanted, false)
        }
        if let write, let store {
            if wait {
                queue.sync { self.write(write, to: store, settingFree: false) }
            } else {
                queue.async { [self] in self.write(write, to: store, settingFree: true) }
            }
        }
        let beyond = state.withLock { state -> Bool in
            guard state.numbering.beyondReservation, !state.saidBeyond else { return false }
            state.saidBeyond = true
            return true
        }
        if beyond {
            logger.warning("client ids are being handed out past their reservation (it cannot be written): after a crash, a client id may come again and inherit the cells of the client that had it")
        }
        return number
    }

    /// `settingFree`: the write was the one under way (`writing`).
    private func write(_ reservation: Int, to store: any ClientReservationStore, settingFree: Bool) {
        do throws(StoreFailure) {
            try store.write(reservation)
            state.withLock { state in
                state.numbering.confirm(reservation)
                if settingFree { state.writing = false }
                if !state.numbering.beyondReservation { state.saidBeyond = false }
            }
        } catch {
            logger.error("cannot reserve client ids: \(error)")
            state.withLock { state in
                if settingFree { state.writing = false }
                state.waitAfter = Uptime.seconds() + Self.retrySeconds
            }
        }
    }
}
