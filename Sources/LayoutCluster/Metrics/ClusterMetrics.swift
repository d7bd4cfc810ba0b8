import CoreMetrics
import LayoutCore

/// What a cluster's threads tell swift-metrics (`MetricCatalogue` says what each is); made at
/// first use, after `serve` bootstrapped the backend.
package enum ClusterMetrics {
    static let redisRoundTrip = CoreMetrics.Timer(label: MetricCatalogue.redisRoundTrip.rawValue)
    static let redisReconnects = Counter(label: MetricCatalogue.redisReconnects.rawValue)
    static let failovers = Counter(label: MetricCatalogue.failovers.rawValue)
    static let handOffs = Counter(label: MetricCatalogue.handOffs.rawValue)

    /// Makes them now, so that `/metrics` shows each (at zero) before its first use.
    package static func prepare() {
        _ = (redisRoundTrip, redisReconnects, failovers, handOffs)
    }
}
