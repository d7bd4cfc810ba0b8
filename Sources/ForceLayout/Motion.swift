/// What the integrator remembers about each cell between steps, in membership order:
/// its last step (to notice overshooting), its step gain (see `Damping`) and, with
/// `collide`, the push its contacts gave it (warm start, see `Collision`).
struct Motion {
    var lastDX: [Double] = []
    var lastDY: [Double] = []
    var gain: [Double] = []
    var pushX: [Double] = []
    var pushY: [Double] = []

    mutating func append() {
        lastDX.append(0); lastDY.append(0); gain.append(1); pushX.append(0); pushY.append(0)
    }

    /// Copies cell `from` to slot `to` (compaction).
    mutating func move(from: Int, to: Int) {
        lastDX[to] = lastDX[from]; lastDY[to] = lastDY[from]; gain[to] = gain[from]
        pushX[to] = pushX[from]; pushY[to] = pushY[from]
    }

    mutating func truncate(to count: Int) {
        lastDX.removeSubrange(count...); lastDY.removeSubrange(count...); gain.removeSubrange(count...)
        pushX.removeSubrange(count...); pushY.removeSubrange(count...)
    }

    /// All five arrays as mutable buffers, for a tight loop.
    mutating func withBuffers<R>(_ body: (UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>,
                                          UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>,
                                          UnsafeMutableBufferPointer<Double>) throws -> R) rethrows -> R {
        try lastDX.withUnsafeMutableBufferPointer { a in
            try lastDY.withUnsafeMutableBufferPointer { b in
                try gain.withUnsafeMutableBufferPointer { c in
                    try pushX.withUnsafeMutableBufferPointer { d in
                        try pushY.withUnsafeMutableBufferPointer { e in try body(a, b, c, d, e) }
                    }
                }
            }
        }
    }

    /// Forgets the contact pushes (collisions were turned off, or the layout jumped).
    mutating func releaseContacts() {
        for i in pushX.indices { pushX[i] = 0; pushY[i] = 0 }
    }
}
