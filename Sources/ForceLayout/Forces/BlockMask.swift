import CVectorMath

// A whole-block test of a mask for the force loops, as one movemask (vector_math.h).

extension SIMDMask where Storage == SIMD4<Int32> {
    /// Every lane true.
    @inline(__always)
    var isAll: Bool { fl_sign_bits4(_storage) == 0xF }
}

extension SIMDMask where Storage == SIMD8<Int32> {
    /// Every lane true (Swift's `all(_:)` is not inlined for eight lanes).
    @inline(__always)
    var isAll: Bool { fl_sign_bits8(_storage) == 0xFF }
}
