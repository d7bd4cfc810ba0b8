import Foundation

/// The page's cell colours (Public/palette.js), for drawings the server writes: a client's
/// hue from its id alone ("c7" -> 7 golden angles; any other id -> an FNV-1a hash of its
/// UTF-16 code units), a group's from its index in the sorted groups, lightness and chroma
/// from the colour scheme, in OKLCH with the chroma reduced until the colour fits sRGB. The
/// same numbers as the page's: Tests/fixtures/palette.json is asserted by both
/// (Tests/web/palette.test.mjs and PaletteFixtureTests).
package enum CellPalette {
    package struct RGB: Equatable, Hashable, Sendable {
        package var r: UInt8, g: UInt8, b: UInt8

        package init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
            self.r = r
            self.g = g
            self.b = b
        }

        /// "#rrggbb"
        package var hex: String {
            let digits = Array("0123456789abcdef")
            return "#" + String([r, g, b].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
        }
    }

    package enum Scheme: String, Sendable, CaseIterable {
        case light, dark

        /// The client colours' OKLCH lightness and chroma, and the neutral grey's lightness.
        var lightness: Double { self == .light ? 0.6 : 0.76 }
        var chroma: Double { self == .light ? 0.16 : 0.14 }
        var neutral: Double { self == .light ? 0.68 : 0.58 }
    }

    static let goldenAngle = 137.50776405003785

    /// Hue in degrees [0, 360) of a client id.
    package static func hue(of client: String) -> Double {
        if client.count >= 2, client.count <= 16, client.hasPrefix("c"),
           client.utf8.dropFirst().allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
           let n = Double(client.dropFirst()) {
            return (n * goldenAngle).truncatingRemainder(dividingBy: 360)
        }
        var h: UInt32 = 0x811c_9dc5
        for unit in client.utf16 {
            h ^= UInt32(unit)
            h = h &* 0x0100_0193
        }
        return Double(h % 3600) / 10
    }

    /// A client's colour; nil or empty: the neutral grey.
    package static func client(_ client: String?, scheme: Scheme = .light) -> RGB {
        guard let client, !client.isEmpty else { return oklch(scheme.neutral, 0, 0) }
        return oklch(scheme.lightness, scheme.chroma, hue(of: client))
    }

    /// The colour of group number `index` in the sorted groups.
    package static func group(_ index: Int, scheme: Scheme = .light) -> RGB {
        oklch(scheme.lightness, scheme.chroma, (Double(index) * goldenAngle + 30).truncatingRemainder(dividingBy: 360))
    }

    /// The bytes of "#rrggbb" (either case); nil for anything else.
    package static func hex(_ text: String) -> RGB? {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#"), let value = UInt32(String(text.dropFirst()), radix: 16)
        else { return nil }
        return RGB(UInt8(value >> 16 & 255), UInt8(value >> 8 & 255), UInt8(value & 255))
    }

    /// sRGB bytes of an OKLCH colour; the chroma is reduced (20 halvings) until it fits.
    package static func oklch(_ l: Double, _ c: Double, _ hueDegrees: Double) -> RGB {
        let h = hueDegrees * Double.pi / 180
        func linear(_ chroma: Double) -> [Double] { oklabToLinear(l, chroma * cos(h), chroma * sin(h)) }
        func fits(_ chroma: Double) -> Bool { linear(chroma).allSatisfy { $0 >= -1e-4 && $0 <= 1 + 1e-4 } }
        var chroma = c
        if !fits(chroma) {
            var lo = 0.0, hi = c
            for _ in 0..<20 {
                let mid = (lo + hi) / 2
                if fits(mid) { lo = mid } else { hi = mid }
            }
            chroma = lo
        }
        let v = linear(chroma).map { (255 * gamma(min(1, max(0, $0)))).rounded(.toNearestOrAwayFromZero) }
        return RGB(UInt8(v[0]), UInt8(v[1]), UInt8(v[2]))
    }

    private static func gamma(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    private static func oklabToLinear(_ l: Double, _ a: Double, _ b: Double) -> [Double] {
        let l3 = pow(l + 0.3963377774 * a + 0.2158037573 * b, 3)
        let m3 = pow(l - 0.1055613458 * a - 0.0638541728 * b, 3)
        let s3 = pow(l - 0.0894841775 * a - 1.291485548 * b, 3)
        return [
            4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3,
            -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3,
            -0.0041960863 * l3 - 0.7034186147 * m3 + 1.707614701 * s3,
        ]
    }
}
