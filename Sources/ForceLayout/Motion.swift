/// What the integrator remembers about each cell between steps, in membership order:
/// its last step (to notice overshooting), its step gain (see `Damping`) and the step at
/// which that gain was last restarted (see `Rest`), and, with `collide`, the push its
/// contacts gave it (warm start, see `Collision`).
struct Motion {
    var lastDX: [Double] = []
    var lastDY: [Double] = []
    var gain: [Double] = []
    var pushX: [Double] = []
    var pushY: [Double] = []
    /// The step at which the cell's gain restarted from 1 (its first overshoot under the
    /// forces of that time); -1 for never. A gain restarted before the forces last changed
    /// (`Simulation.forcesSince`) was learned under other forces: it is stale.
    var learnedAt: [Int] = []

    mutating func append() {
        lastDX.append(0); lastDY.append(0); gain.append(1); pushX.append(0); pushY.append(0)
        learnedAt.append(-1)
    }

    /// Copies cell `from` to slot `to` (compaction).
    mutating func move(from: Int, to: Int) {
        lastDX[to] = lastDX[from]; lastDY[to] = lastDY[from]; gain[to] = gain[from]
        pushX[to] = pushX[from]; pushY[to] = pushY[from]; learnedAt[to] = learnedAt[from]
    }

    /// Copies cell `from` of `other` to slot `to` of this one (a merge, `Simulation.restore`).
    mutating func copy(_ from: Int, from other: Motion, to: Int) {
        lastDX[to] = other.lastDX[from]; lastDY[to] = other.lastDY[from]; gain[to] = other.gain[from]
        pushX[to] = other.pushX[from]; pushY[to] = other.pushY[from]; learnedAt[to] = other.learnedAt[from]
    }

    mutating func truncate(to count: Int) {
        lastDX.removeSubrange(count...); lastDY.removeSubrange(count...); gain.removeSubrange(count...)
        pushX.removeSubrange(count...); pushY.removeSubrange(count...); learnedAt.removeSubrange(count...)
    }

    /// The five per-cell values of the step as mutable buffers, and `learnedAt`, for a tight loop.
    mutating func withBuffers<R>(_ body: (UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>,
                                          UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>,
                                          UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Int>) throws -> R) rethrows -> R {
        try lastDX.withUnsafeMutableBufferPointer { a in
            try lastDY.withUnsafeMutableBufferPointer { b in
                try gain.withUnsafeMutableBufferPointer { c in
                    try pushX.withUnsafeMutableBufferPointer { d in
                        try pushY.withUnsafeMutableBufferPointer { e in
                            try learnedAt.withUnsafeMutableBufferPointer { f in try body(a, b, c, d, e, f) }
                        }
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
