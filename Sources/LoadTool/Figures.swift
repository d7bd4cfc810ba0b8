import Foundation

/// The arithmetic every report shares: nearest-rank percentiles, min/median/max summaries,
/// rounding for JSON.
enum Figures {
    /// The `p`-quantile (0…1) of sorted values by the nearest-rank method; nil when empty.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// {min, median, max} of `values` (any order), rounded; zeros when empty.
    static func summary(_ values: [Double], places: Int = 2) -> [String: Double] {
        let sorted = values.sorted()
        return ["min": round(sorted.first ?? 0, places), "median": round(percentile(sorted, 0.5) ?? 0, places),
                "max": round(sorted.last ?? 0, places)]
    }

    static func round(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    /// One line of JSON with sorted keys.
    static func jsonLine(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
