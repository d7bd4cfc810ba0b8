import Foundation

/// This process's memory as Linux reports it in /proc/self/status (0 where unavailable).
public enum ProcessMemory {
    /// Resident set size now, in MB.
    public static var residentMB: Double { field("VmRSS:") }

    /// The largest resident set size so far, in MB.
    public static var peakResidentMB: Double { field("VmHWM:") }

    private static func field(_ name: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes / 1024
    }
}
