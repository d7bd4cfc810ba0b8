// The one vector operation the force loops need and Swift's SIMD types do not give them
// well: the sign bits of a mask's lanes as an integer (x86 movmskps), to test a whole
// block at once. Swift's `all(_:)` on an eight-lane mask is a call to an unspecialised
// reduction, which spills every vector register of the loop around it. Eight lanes are
// one AVX instruction when the build targets AVX (the Makefile's native build), else two
// of four. Static inline: it compiles into the Swift loop.
#pragma once

#if defined(__AVX__)
#include <immintrin.h>
#elif defined(__SSE__)
#include <xmmintrin.h>
#endif

typedef int fl_int4 __attribute__((ext_vector_type(4)));
typedef int fl_int8 __attribute__((ext_vector_type(8)));

#define FL_INLINE static inline __attribute__((always_inline))

/// Bit i set when lane i of `mask` has its sign bit set (is true, for a SIMD mask).
FL_INLINE int fl_sign_bits4(fl_int4 mask) {
#if defined(__SSE__)
    return _mm_movemask_ps((__m128)mask);
#else
    int bits = 0;
    for (int i = 0; i < 4; i++) bits |= (mask[i] < 0) << i;
    return bits;
#endif
}

FL_INLINE int fl_sign_bits8(fl_int8 mask) {
#if defined(__AVX__)
    return _mm256_movemask_ps((__m256)mask);
#else
    return fl_sign_bits4(mask.lo) | (fl_sign_bits4(mask.hi) << 4);
#endif
}
