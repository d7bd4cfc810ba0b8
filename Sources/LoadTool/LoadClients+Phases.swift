import CLibWebSockets
import LayoutServer

/// The load run's phases (connecting, warming up, measuring), moved on by a 100 ms timer on
/// the service thread.
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
            if (settled && controlDone) || time > phaseEnds {
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
                tallies[index] = fresh
            }
            phase = .measuring
            measuredFrom = now()
            phaseEnds = measuredFrom + options.seconds
        case .measuring:
            guard time >= phaseEnds else { return }
            measuredSeconds = now() - measuredFrom
            after = StatsProbe.sample(host: options.url.host, port: options.url.port)
            phase = .done
            if let context { lws_cancel_service(context) }
        case .done:
            break
        }
    }
}
