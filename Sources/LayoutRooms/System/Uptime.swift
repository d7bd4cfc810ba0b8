import Dispatch

/// The monotonic clock every timer of the server reads (pacing, leases, backoff, buckets):
/// seconds since boot, never set back.
package enum Uptime {
    package static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
