/// The two force arrays, moved together into the lock the parallel chunks copy through.
struct ForceBuffers: Sendable {
    var x: [Double]
    var y: [Double]

    /// Sets `fx`, `fy` to `count` zeros, keeping their capacity so a caller's scratch
    /// arrays are reused step after step.
    static func zero(_ fx: inout [Double], _ fy: inout [Double], count: Int) {
        fx.removeAll(keepingCapacity: true)
        fx.append(contentsOf: repeatElement(0, count: count))
        fy.removeAll(keepingCapacity: true)
        fy.append(contentsOf: repeatElement(0, count: count))
    }
}
