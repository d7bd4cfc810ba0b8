import CLibWebSockets
import LayoutServer

/// The shard's phases (connecting, warming up, measuring, holding the connections until the
/// server has been sampled; or with `settle`, settling), moved on by a timer on the service
/// thread: every 100 ms, and at the run's window's ends.
extension LoadClients {
    func scheduleTimer() {
        timer = ServiceTimer { [unowned self] in self.timerFired() }
        armTimer(now: now())
    }

    func armTimer(now time: Double) {
        guard let context, let timer else { return }
        var wait = 0.1
        if let window, phase == .warming || phase == .measuring {
            wait = min(wait, max(0.001, (phase == .warming ? window.from : window.to) - time))
        }
        timer.schedule(on: context, after: Int64(wait * 1_000_000))
    }

    func timerFired() {
        let time = now()
        defer { if phase != .done { armTimer(now: time) } }
        if let reason = schedule.stopped, phase != .settling {
            if controlError == nil, part.control { controlError = reason }
            return finish()
        }
        switch phase {
        case .connecting: connecting(at: time)
        case .warming:
            guard let window, time >= window.from else { return }
            startMeasuring()
        case .measuring:
            guard let window, time >= window.to else { return }
            measuredSeconds = now() - measuredFrom
            measured = tallies
            measuredAges = ages
            phase = .holding
        case .holding:
            if schedule.released { finish() }
        case .settling:
            let over = tallies.allSatisfy { $0.left || $0.connectFailed || $0.closedWith != nil }
            guard over || time >= (window?.to ?? time) else { return }
            finish()
        case .done:
            break
        }
    }

    private func connecting(at time: Double) {
        if !readyReported {
            let settled = tallies.allSatisfy { $0.connected || $0.connectFailed || $0.closedWith != nil }
            let setUp = controlDone && zip(tallies, setUpQueues).allSatisfy { $0.connected == false || $1.isEmpty }
            if settled && setUp {
                readyReported = true
                schedule.shardReady(now: time)
            }
        }
        guard let window = schedule.window(now: time) else { return }
        self.window = window
        phase = .warming
    }

    /// Counts from here on; keeps what is known of each connection's state.
    private func startMeasuring() {
        for index in tallies.indices {
            var fresh = LoadTally(stalled: tallies[index].stalled, slow: tallies[index].slow)
            fresh.connected = tallies[index].connected
            fresh.connectFailed = tallies[index].connectFailed
            fresh.closedWith = tallies[index].closedWith
            fresh.errors = tallies[index].errors // a refused set-up, with rooms
            tallies[index] = fresh
        }
        ages = FrameAges()
        phase = .measuring
        measuredFrom = now()
    }

    func finish() {
        phase = .done
        if let context { lws_cancel_service(context) }
    }
}
