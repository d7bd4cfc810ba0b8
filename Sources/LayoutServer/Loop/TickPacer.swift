import Dispatch

/// When the simulation thread goes on: at `tickRate` while the layout moves (a step slower
/// than the interval is followed at once by the next, never by a full extra interval), every
/// 250 ms while it rests, and at once when a command arrives.
struct TickPacer {
    private var next = DispatchTime.now()

    mutating func wait(stepping: Bool, tickRate: Double, on commands: CommandQueue, unless stopped: () -> Bool) {
        if stepping {
            while !stopped() && DispatchTime.now() < next { commands.wait(until: next) }
        } else {
            commands.wait(until: .now() + .milliseconds(250))
        }
        let interval = DispatchTimeInterval.nanoseconds(Int(1e9 / tickRate))
        let now = DispatchTime.now()
        next = stepping ? max(next + interval, now) : now + interval
    }
}
