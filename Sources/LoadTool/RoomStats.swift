import LayoutCore
import LayoutServer

/// What a `--settle` client reads of its room's `stats` message (sent once a second): how
/// many cells the room holds, its tick, and whether it has settled. Small: parsed whole.
struct RoomStats: Equatable {
    var cells: Int
    var tick: Int
    var settled: Bool

    /// A `stats` message is well under this; a longer message is not one.
    static let maxLength = 2048

    init(cells: Int, tick: Int, settled: Bool) {
        self.cells = cells
        self.tick = tick
        self.settled = settled
    }

    /// Nil unless `message` is a whole `stats` message with `cells`, `tick` and `settled`.
    init?(_ message: [UInt8]) {
        guard message.count <= Self.maxLength, let value = try? JSONParser.parse(message),
              case .string("stats")? = value["type"], case .number(let cells)? = value["cells"],
              case .number(let tick)? = value["tick"], case .bool(let settled)? = value["settled"] else { return nil }
        self.init(cells: Int(cells), tick: Int(tick), settled: settled)
    }
}

/// When a `--settle` client may leave its room: after it has seen the layout step (a frame
/// with a later tick than the first one it got, which shows the room as it joined), a
/// `stats` that says the room has settled with all the cells asked for, as of that step or
/// later. (A `stats` from before the first step after an add may still say "settled".)
struct SettleWatch: Equatable {
    let cells: Int
    private var firstTick: Int?
    private var movedTo: Int?
    /// When it settled (seconds, the caller's clock); nil until then.
    private(set) var settledAt: Double?

    init(cells: Int) { self.cells = cells }

    mutating func frame(tick: Int) {
        guard let firstTick else { firstTick = tick; return }
        if tick > firstTick { movedTo = max(movedTo ?? tick, tick) }
    }

    /// True the first time the room counts as settled.
    mutating func stats(_ stats: RoomStats, now: Double) -> Bool {
        guard settledAt == nil, let movedTo, stats.settled, stats.cells == cells, stats.tick >= movedTo else { return false }
        settledAt = now
        return true
    }
}
