import Foundation

/// CPU time the whole machine spent busy (every state of the `cpu` line of `/proc/stat` but
/// idle and iowait) up to one moment: next to the server's and the tool's own, it shows how
/// much of the machine other processes took during a window (this machine is shared).
public struct MachineSample: Equatable, Sendable {
    public var busySeconds: Double
    /// Wall-clock seconds since 1970 when it was taken.
    public var at: Double

    public init(busySeconds: Double, at: Double) {
        self.busySeconds = busySeconds
        self.at = at
    }

    public static func read(at: Double = Date().timeIntervalSince1970) -> MachineSample? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        return parse(stat: text, clockTicksPerSecond: Int(sysconf(Int32(_SC_CLK_TCK))), at: at)
    }

    /// `cpu  user nice system idle iowait irq softirq steal guest guest_nice` (clock ticks);
    /// guest time is already within user and nice.
    static func parse(stat: String, clockTicksPerSecond: Int, at: Double) -> MachineSample? {
        guard clockTicksPerSecond > 0,
              let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        let ticks = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().prefix(8).compactMap { Int($0) }
        guard ticks.count >= 5 else { return nil }
        let busy = ticks.reduce(0, +) - ticks[3] - ticks[4]
        return MachineSample(busySeconds: Double(busy) / Double(clockTicksPerSecond), at: at)
    }

    /// Cores kept busy between two samples.
    public static func cores(from before: MachineSample, to after: MachineSample) -> Double? {
        guard after.at > before.at else { return nil }
        return (after.busySeconds - before.busySeconds) / (after.at - before.at)
    }
}
