/// SplitMix64's output mix: a cheap, well-distributed 64-bit hash.
/// Also used on its own to derive wiggle directions from (id, id, tick).
@inline(__always)
func splitMix64(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

/// A seeded SplitMix64 generator, so spawning (and therefore tests) is reproducible.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        let out = splitMix64(state)
        state = state &+ 0x9E37_79B9_7F4A_7C15
        return out
    }
}
