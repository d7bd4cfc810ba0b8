import CoreMetrics
import LayoutCore

/// What stepping threads and state files tell swift-metrics (`MetricCatalogue` says what each
/// is). Made at first use through `MetricsSystem.factory`: `serve` bootstraps its backend
/// before any room steps; without one (tests, the tools) they record nothing.
package enum RoomMetrics {
    static let step = CoreMetrics.Timer(label: MetricCatalogue.stepSeconds.rawValue)
    static let encode = CoreMetrics.Timer(label: MetricCatalogue.encodeSeconds.rawValue)
    static let saves = Counter(label: MetricCatalogue.stateSaves.rawValue)
    static let saveFailures = Counter(label: MetricCatalogue.stateSaveFailures.rawValue)

    /// Makes them now, so that `/metrics` shows each (at zero) before its first use.
    package static func prepare() {
        _ = (step, encode, saves, saveFailures)
    }
}
