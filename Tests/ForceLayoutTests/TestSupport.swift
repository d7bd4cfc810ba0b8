import XCTest
@testable import ForceLayout

/// Steps until settled; returns the number of steps taken, or nil if `limit` was reached.
@discardableResult
func runUntilSettled(_ sim: Simulation, limit: Int) -> Int? {
    for n in 1...limit where sim.step().settled {
        return n
    }
    return nil
}

func distance(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
    let dx = a.x - b.x, dy = a.y - b.y
    return (dx * dx + dy * dy).squareRoot()
}

/// The smallest distance between any two cells.
func minPairDistance(_ sim: Simulation) -> Double {
    var best = Double.infinity
    for i in 0..<sim.count {
        for j in (i + 1)..<sim.count {
            best = min(best, distance((sim.xs[i], sim.ys[i]), (sim.xs[j], sim.ys[j])))
        }
    }
    return best
}

func allFinite(_ sim: Simulation) -> Bool {
    sim.xs.allSatisfy(\.isFinite) && sim.ys.allSatisfy(\.isFinite)
}
