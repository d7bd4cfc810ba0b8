/// The interaction lists of one leaf, as contiguous arrays the force loops stream through:
/// far nodes (center of mass, mass, quadrupole) and near cells (position, tree slot).
/// Owned by one work item; grows by doubling and is reused leaf after leaf, so the force
/// loops allocate nothing.
final class InteractionLists {
    private(set) var farCount = 0
    private(set) var nearCount = 0
    private var farCapacity = 0
    private var nearCapacity = 0

    private(set) var farX = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    private(set) var farY = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    private(set) var farMass = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    private(set) var farQxx = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    private(set) var farQyy = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    private(set) var farQxy = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    private(set) var nearX = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    private(set) var nearY = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    /// Tree position of a near cell; -1 for padding.
    private(set) var nearSlot = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    init() {
        growFar(to: 256)
        growNear(to: 256)
    }

    deinit {
        for pointer in [farX, farY, farMass, farQxx, farQyy, farQxy, nearX, nearY] { pointer.deallocate() }
        nearSlot.deallocate()
    }

    func reset() {
        farCount = 0
        nearCount = 0
    }

    @inline(__always)
    func addFar(_ node: PackedNode) {
        if farCount + 2 > farCapacity { growFar(to: farCapacity * 2) }
        farX[farCount] = node.massX
        farY[farCount] = node.massY
        farMass[farCount] = node.mass
        farQxx[farCount] = node.qxx
        farQyy[farCount] = node.qyy
        farQxy[farCount] = node.qxy
        farCount += 1
    }

    @inline(__always)
    func addNear(x: Double, y: Double, slot: Int32) {
        if nearCount + 2 > nearCapacity { growNear(to: nearCapacity * 2) }
        nearX[nearCount] = x
        nearY[nearCount] = y
        nearSlot[nearCount] = slot
        nearCount += 1
    }

    /// Pads both lists to an even length, for the two-lane loops, with entries so far away
    /// (1e150, squared still finite) that their force is exactly zero.
    func pad() {
        if farCount % 2 == 1 {
            farX[farCount] = 1e150; farY[farCount] = 1e150
            farMass[farCount] = 0; farQxx[farCount] = 0; farQyy[farCount] = 0; farQxy[farCount] = 0
            farCount += 1
        }
        if nearCount % 2 == 1 {
            nearX[nearCount] = 1e150; nearY[nearCount] = 1e150
            nearSlot[nearCount] = -1
            nearCount += 1
        }
    }

    @inline(__always)
    func pair(_ base: UnsafeMutablePointer<Double>, _ index: Int) -> SIMD2<Double> {
        UnsafeRawPointer(base + index).loadUnaligned(as: SIMD2<Double>.self)
    }

    private func growFar(to capacity: Int) {
        farX = grown(farX, farCount, capacity); farY = grown(farY, farCount, capacity)
        farMass = grown(farMass, farCount, capacity); farQxx = grown(farQxx, farCount, capacity)
        farQyy = grown(farQyy, farCount, capacity); farQxy = grown(farQxy, farCount, capacity)
        farCapacity = capacity
    }

    private func growNear(to capacity: Int) {
        nearX = grown(nearX, nearCount, capacity); nearY = grown(nearY, nearCount, capacity)
        nearSlot = grown(nearSlot, nearCount, capacity)
        nearCapacity = capacity
    }

    private func grown<T>(_ old: UnsafeMutablePointer<T>, _ count: Int, _ capacity: Int) -> UnsafeMutablePointer<T> {
        let new = UnsafeMutablePointer<T>.allocate(capacity: capacity)
        new.moveInitialize(from: old, count: count)
        old.deallocate()
        return new
    }
}
