import CLibWebSockets
import LayoutServer

/// The load run's phases (connecting, warming up, measuring; or with `settle`, settling),
/// moved on by a 100 ms timer on the service thread.
extension LoadClients {
    func scheduleTimer() {
        timer = ServiceTimer { [unowned self] in self.timerFired() }
        armTimer()
    }

    func armTimer() {
        guard let context, let timer else { return }
        timer.schedule(on: context, after: 100_000)
    }

    func timerFired() {
        defer { if phase != .done { armTimer() } }
        let time = now()
        switch phase {
        case .connecting:
            let settled = tallies.allSatisfy { $0.connected || $0.connectFailed || $0.closedWith != nil }
            let setUp = controlDone && zip(tallies, setUpQueues).allSatisfy { $0.connected == false || $1.isEmpty }
            if (settled && setUp) || time > phaseEnds {
                phase = .warming
                phaseEnds = time + options.warmupSeconds
            }
        case .warming:
            guard time >= phaseEnds else { return }
            before = StatsProbe.sample(host: options.url.host, port: options.url.port)
            // Count from here on; keep what is known of each connection's state.
            for index in tallies.indices {
                var fresh = LoadTally(stalled: tallies[index].stalled)
                fresh.connected = tallies[index].connected
                fresh.connectFailed = tallies[index].connectFailed
                fresh.closedWith = tallies[index].closedWith
                fresh.errors = tallies[index].errors // a refused set-up, with rooms
                tallies[index] = fresh
            }
            phase = .measuring
            measuredFrom = now()
            cost.before = .read(serverPID: options.serverPID, at: measuredFrom)
            phaseEnds = measuredFrom + options.seconds
        case .measuring:
            guard time >= phaseEnds else { return }
            let end = now()
            cost.after = .read(serverPID: options.serverPID, at: end)
            measuredSeconds = end - measuredFrom
            after = StatsProbe.sample(host: options.url.host, port: options.url.port)
            finish()
        case .settling:
            let over = tallies.allSatisfy { $0.left || $0.connectFailed || $0.closedWith != nil }
            guard over || time >= phaseEnds else { return }
            cost.after = .read(serverPID: options.serverPID, at: now())
            finish()
        case .done:
            break
        }
    }

    private func finish() {
        phase = .done
        if let context { lws_cancel_service(context) }
    }
}
