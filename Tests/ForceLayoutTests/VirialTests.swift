import XCTest
@testable import ForceLayout

/// The balancing map read from the virials (`Virial`), with no layout around it.
final class VirialTests: XCTestCase {
    func testAnIsotropicImbalanceScalesEvenly() throws {
        var v = Virial(power: 2.5)
        v.rxx = 2; v.ryy = 2
        v.sxx = 1; v.syy = 1
        let (a, b, c) = try XCTUnwrap(v.map())
        XCTAssertEqual(a, Foundation.pow(2, 1 / 4.5), accuracy: 1e-12)
        XCTAssertEqual(c, a, accuracy: 1e-12)
        XCTAssertEqual(b, 0, accuracy: 1e-12)
    }

    func testAStretchIsUndoneAlongItsOwnAxis() throws {
        // Too much pull along (1, 1)/√2, balance across it.
        var v = Virial(power: 2.5)
        v.rxx = 1; v.ryy = 1; v.rxy = 0
        v.sxx = 2; v.syy = 2; v.sxy = 1  // eigen: 3 along (1, 1), 1 along (1, −1)
        let (a, b, c) = try XCTUnwrap(v.map())
        let along = (a + b + b + c) / 2, across = (a - b - b + c) / 2  // uᵀMu for u = (1, ±1)/√2
        XCTAssertEqual(along, Foundation.pow(1.0 / 3, 1 / 4.5), accuracy: 1e-9, "shrinks where the links pull too hard")
        XCTAssertEqual(across, 1, accuracy: 1e-9, "stays where it balances")
    }

    func testAWayWithoutLinksTakesTheWholeRatio() throws {
        // A path along x: nothing links across it, so y follows the drawing as a whole.
        var v = Virial(power: 2.5)
        v.rxx = 4; v.ryy = 1
        v.sxx = 1; v.syy = 0.001
        let (a, _, c) = try XCTUnwrap(v.map())
        XCTAssertEqual(c, Foundation.pow(5 / 1.001, 1 / 4.5), accuracy: 1e-9)
        XCTAssertEqual(a, Foundation.pow(4, 1 / 4.5), accuracy: 1e-9)
    }

    func testMapsAreClampedAndNothingToBalanceIsNil() throws {
        var v = Virial(power: 2.5)
        XCTAssertNil(v.map())
        v.rxx = 1e12; v.ryy = 1e12; v.sxx = 1; v.syy = 1
        let (a, _, c) = try XCTUnwrap(v.map())
        XCTAssertEqual(a, Virial.limits.upperBound)
        XCTAssertEqual(c, Virial.limits.upperBound)
    }
}
