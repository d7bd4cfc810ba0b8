#if FORCELAYOUT_AVX
/// The block the force loops compute at once: eight single-precision lanes, one AVX
/// register, in the build for AVX2 machines (`make` on one; see Package.swift).
typealias Lanes = SIMD8<Float>
#else
/// The block the force loops compute at once: four single-precision lanes, one SSE or
/// NEON register (eight, in two registers each, would spill the loops' registers).
typealias Lanes = SIMD4<Float>
#endif

/// Lanes the force loops compute at once in this build (8: built for AVX2, 4: portable), for
/// `forcelayout --version`.
public let forceLoopLanes = Lanes.scalarCount

extension SIMD4 where Scalar == Float {
    /// 0, 1, 2, 3: each lane's index, for masking a block's padding.
    static var indices: SIMD4<Float> { SIMD4(0, 1, 2, 3) }

    /// The sum of the lanes, in double precision.
    @inline(__always)
    var wideSum: Double { SIMD4<Double>(self).sum() }
}

extension SIMD8 where Scalar == Float {
    static var indices: SIMD8<Float> { SIMD8(0, 1, 2, 3, 4, 5, 6, 7) }

    @inline(__always)
    var wideSum: Double { (SIMD4<Double>(lowHalf) + SIMD4<Double>(highHalf)).sum() }
}

/// A few equally long columns of floats in one allocation, read a block of `Lanes` at a
/// time; manual memory, so the force loops index it without bounds or uniqueness checks.
struct Columns {
    let count: Int
    private(set) var capacity: Int
    private(set) var base: UnsafeMutablePointer<Float>

    init(count: Int, capacity: Int) {
        self.count = count
        self.capacity = capacity
        base = .allocate(capacity: count * capacity)
    }

    @inline(__always)
    subscript(column: Int, row: Int) -> Float {
        get { base[column * capacity + row] }
        nonmutating set { base[column * capacity + row] = newValue }
    }

    /// The first six columns' bases (for a loop that fills a row at a time).
    var columns: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
                  UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) {
        (base, base + capacity, base + Swift.min(2, count - 1) * capacity, base + Swift.min(3, count - 1) * capacity,
         base + Swift.min(4, count - 1) * capacity, base + Swift.min(5, count - 1) * capacity)
    }

    /// Rows `row ..< row + Lanes.scalarCount` of `column`.
    @inline(__always)
    func lanes(_ column: Int, _ row: Int) -> Lanes {
        UnsafeRawPointer(base + column * capacity + row).loadUnaligned(as: Lanes.self)
    }

    /// Doubles the capacity, keeping the first `used` rows.
    mutating func grow(_ used: Int) {
        let wider = UnsafeMutablePointer<Float>.allocate(capacity: count * capacity * 2)
        for column in 0..<count {
            (wider + column * capacity * 2).moveInitialize(from: base + column * capacity, count: used)
        }
        base.deallocate()
        base = wider
        capacity *= 2
    }

    func deallocate() { base.deallocate() }
}

/// One column of tree indices beside `Columns`, grown with it.
struct Int32Column {
    private(set) var base: UnsafeMutablePointer<Int32>
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    @inline(__always)
    subscript(row: Int) -> Int32 {
        get { base[row] }
        nonmutating set { base[row] = newValue }
    }

    /// Makes room for at least `rows` rows; the contents are lost.
    mutating func reserve(_ rows: Int) {
        guard rows > capacity else { return }
        base.deallocate()
        capacity = Swift.max(rows, capacity * 2)
        base = .allocate(capacity: capacity)
    }

    mutating func grow(_ used: Int) {
        let wider = UnsafeMutablePointer<Int32>.allocate(capacity: capacity * 2)
        wider.moveInitialize(from: base, count: used)
        base.deallocate()
        base = wider
        capacity *= 2
    }

    func deallocate() { base.deallocate() }
}
