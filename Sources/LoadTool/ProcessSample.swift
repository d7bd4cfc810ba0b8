import Foundation

/// A process's CPU time (user + system) and memory at one moment, from `/proc/PID/stat` and
/// `/proc/PID/status` (Linux): the load tool samples the server's and its own at both ends of
/// the measured window, so a report says what each cost.
public struct ProcessSample: Equatable, Sendable {
    public var cpuSeconds: Double
    public var rssMB: Double
    /// The largest resident size so far (`VmHWM`); nil when the status file has none.
    public var peakRSSMB: Double?
    /// Wall-clock seconds since 1970 when it was taken.
    public var at: Double

    public init(cpuSeconds: Double, rssMB: Double, peakRSSMB: Double? = nil, at: Double) {
        self.cpuSeconds = cpuSeconds
        self.rssMB = rssMB
        self.peakRSSMB = peakRSSMB
        self.at = at
    }

    /// `pid` nil: this process. Nil when the process is gone or /proc is not there.
    public static func read(pid: Int32? = nil, at: Double = Date().timeIntervalSince1970) -> ProcessSample? {
        let directory = "/proc/" + (pid.map(String.init) ?? "self")
        guard let stat = try? String(contentsOfFile: directory + "/stat", encoding: .utf8),
              var sample = parse(stat: stat, clockTicksPerSecond: Int(sysconf(Int32(_SC_CLK_TCK))),
                                 pageBytes: Int(sysconf(Int32(_SC_PAGESIZE))), at: at)
        else { return nil }
        if let status = try? String(contentsOfFile: directory + "/status", encoding: .utf8) {
            sample.peakRSSMB = peakRSSMB(status: status)
        }
        return sample
    }

    /// From the text of `/proc/PID/stat`: utime and stime (fields 14 and 15, in clock ticks)
    /// and rss (field 24, in pages). The command name (field 2) may hold spaces and
    /// parentheses, so fields are counted from the last `)`.
    static func parse(stat: String, clockTicksPerSecond: Int, pageBytes: Int, at: Double) -> ProcessSample? {
        guard clockTicksPerSecond > 0, let close = stat.lastIndex(of: ")") else { return nil }
        // After ")": field 3 (state) is index 0, so field n is index n - 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 21, let user = Int(fields[11]), let system = Int(fields[12]), let pages = Int(fields[21])
        else { return nil }
        return ProcessSample(cpuSeconds: Double(user + system) / Double(clockTicksPerSecond),
                             rssMB: Double(pages * pageBytes) / 1_048_576, at: at)
    }

    /// `VmHWM:   123456 kB` of `/proc/PID/status`, in MB.
    static func peakRSSMB(status: String) -> Double? {
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, let kilobytes = Double(parts[1]) else { return nil }
            return kilobytes / 1024
        }
        return nil
    }

    /// Cores kept busy between two samples: CPU seconds per wall-clock second.
    public static func cores(from before: ProcessSample, to after: ProcessSample) -> Double? {
        guard after.at > before.at else { return nil }
        return (after.cpuSeconds - before.cpuSeconds) / (after.at - before.at)
    }
}
