import XCTest
@testable import ForceLayout

final class ParallelTests: XCTestCase {
    /// The parallel force path sums each cell's terms in the same order as the serial one,
    /// and the integration combines fixed chunks in order, so steps must agree exactly,
    /// coincident and pinned cells included; at 5,000 cells the integration has three chunks.
    func testParallelAndSerialStepsAgree() throws {
        for size in [2_000, 5_000] {
            func make() throws -> Simulation {
                let sim = Simulation(seed: 2024)
                sim.add(count: size - 10)
                sim.add(count: 6, spawn: .center)
                sim.add(count: 4, spawn: .point(x: 3, y: 3))
                try sim.pin(10, x: 5, y: 5)
                try sim.pin(size - 1, x: 0, y: 0)
                return sim
            }
            let parallel = try make(), serial = try make()
            XCTAssertEqual(parallel.count, size)
            XCTAssertEqual(parallel.xs, serial.xs)

            for tick in 1...3 {
                let a = parallel.advance(parallel: true)
                let b = serial.advance(parallel: false)
                XCTAssertEqual(a, b)
                XCTAssertEqual(parallel.xs, serial.xs)
                XCTAssertEqual(parallel.ys, serial.ys)
                XCTAssertEqual(parallel.tick, tick)
            }
            XCTAssertEqual(parallel.position(of: 10)?.x, 5)
            XCTAssertTrue(allFinite(parallel))
        }
    }

    func testForceSumsAgreeForOddSizes() {
        // Sizes around the chunk boundaries.
        for n in [2, 63, 64, 65, 130] {
            var rng = SeededRandom(seed: UInt64(n))
            let xs = (0..<n).map { _ in Double.random(in: -100...100, using: &rng) }
            let ys = (0..<n).map { _ in Double.random(in: -100...100, using: &rng) }
            let ids = Array(1...n)
            let pinned = (0..<n).map { $0 % 7 == 3 }
            let coulomb = Coulomb(charge: 10, tick: 0)
            var px: [Double] = [], py: [Double] = [], sx: [Double] = [], sy: [Double] = []
            coulomb.forces(xs: xs, ys: ys, ids: ids, pinned: pinned, parallel: true, fx: &px, fy: &py)
            coulomb.forces(xs: xs, ys: ys, ids: ids, pinned: pinned, parallel: false, fx: &sx, fy: &sy)
            XCTAssertEqual(px, sx, "n = \(n)")
            XCTAssertEqual(py, sy, "n = \(n)")
            XCTAssertEqual(px.count, n)
            for i in 0..<n where pinned[i] { XCTAssertEqual(px[i], 0); XCTAssertEqual(py[i], 0) }
        }
    }
}
