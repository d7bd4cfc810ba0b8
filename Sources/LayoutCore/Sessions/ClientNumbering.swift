/// The numbers of client ids (`c7`, `c7@b`), never handed out twice by a server that keeps a
/// reservation somewhere (a state directory, or a cluster's Redis): the cells a client added
/// keep its id as their owner across restarts (`Ownership`), so a new connection must never get
/// an old client's id, or it would inherit its cells. Numbers are reserved in blocks, as cell
/// ids are (`IDReservation`): the store holds a reservation, every number below it may have been
/// handed out, none at or above it was; a run starts at the stored reservation.
///
/// Unlike an `add`, a connection cannot wait for a write: when numbering reaches the durable
/// reservation before the write of the next block completed (it is asked for with half a block
/// left, so only a store that fails or lags that many connections), numbers go on past it and
/// `beyondReservation` says so; such numbers may come again after a crash. Pure: each
/// transition says what to write, and the caller reports back what was written (`confirm`).
package struct ClientNumbering: Equatable, Sendable {
    /// Without a store: numbering starts at 1 with every run (nothing is restored either).
    private var reservation: IDReservation?
    private var next: Int

    /// No store: 1, 2, 3, …
    package init() {
        next = 1
    }

    /// A store that holds `stored` (nil: nothing yet). `initialWrite` must be written, and
    /// confirmed, before the first number is handed out.
    package init(stored: Int?, block: Int = IDReservation.defaultBlock) {
        let first = max(stored ?? 1, 1)
        reservation = IDReservation(nextID: first, reservation: first, block: block)
        next = first
    }

    /// The reservation to write at start (nil: no store).
    package mutating func initialWrite() -> Int? {
        reservation?.ahead(nextID: next)
    }

    /// The next number; `write`: a reservation to write (asynchronously) and `confirm`.
    package mutating func take() -> (number: Int, write: Int?) {
        let number = next
        next += 1
        guard var reservation else { return (number, nil) }
        defer { self.reservation = reservation }
        switch reservation.admit(nextID: number, count: 1) {
        case .proceed(let extendTo): return (number, extendTo)
        case .wait(let writing): return (number, writing)
        }
    }

    /// Numbers were handed out at or above the durable reservation (a write failed or lags).
    package var beyondReservation: Bool {
        guard let reservation else { return false }
        return next > reservation.durable
    }

    /// A write of `reservation` completed.
    package mutating func confirm(_ written: Int) {
        reservation?.confirm(durable: written)
    }
}
