import CoreMetrics
import LayoutCore
import Prometheus
import XCTest
@testable import LayoutServer

/// What `GET /metrics` shows, built through swift-metrics' API on our factory: every metric
/// with the catalogue's help and buckets, and the service thread's labels from closed sets.
final class MetricsExpositionTests: XCTestCase {
    private func exposition(_ factory: CatalogueMetricsFactory) -> String {
        factory.registry.emitToString()
    }

    func testACounterHasItsHelpAndType() {
        let factory = CatalogueMetricsFactory()
        Counter(label: MetricCatalogue.stateSaves.rawValue, factory: factory).increment(by: 3)
        let text = exposition(factory)
        XCTAssertTrue(text.contains("# HELP forcelayout_state_saves_total \(MetricCatalogue.stateSaves.help)\n"), text)
        XCTAssertTrue(text.contains("# TYPE forcelayout_state_saves_total counter\n"), text)
        XCTAssertTrue(text.contains("forcelayout_state_saves_total 3\n"), text)
    }

    func testATimerIsAHistogramInSecondsWithTheCataloguesBuckets() {
        let factory = CatalogueMetricsFactory()
        let timer = CoreMetrics.Timer(label: MetricCatalogue.stepSeconds.rawValue, factory: factory)
        timer.recordNanoseconds(700_000)  // 0.7 ms
        timer.recordNanoseconds(30_000_000)  // 30 ms
        let text = exposition(factory)
        XCTAssertTrue(text.contains("# TYPE forcelayout_step_seconds histogram\n"), text)
        XCTAssertTrue(text.contains(#"forcelayout_step_seconds_bucket{le="0.0005"} 0"#), text)
        XCTAssertTrue(text.contains(#"forcelayout_step_seconds_bucket{le="0.001"} 1"#), text)
        XCTAssertTrue(text.contains(#"forcelayout_step_seconds_bucket{le="0.05"} 2"#), text)
        XCTAssertTrue(text.contains("forcelayout_step_seconds_count 2\n"), text)
    }

    func testAMetricOutsideTheCatalogueIsMadeWithoutHelp() {
        let factory = CatalogueMetricsFactory()
        Counter(label: "elsewhere_total", factory: factory).increment()
        let text = exposition(factory)
        XCTAssertFalse(text.contains("# HELP elsewhere_total"), text)
        XCTAssertTrue(text.contains("elsewhere_total 1\n"), text)
    }

    func testTheServiceThreadsLabelsComeFromClosedSets() {
        let factory = CatalogueMetricsFactory()
        let metrics = ServerMetrics(factory: factory)
        metrics.closed(status: nil)
        metrics.closed(status: 1000)
        metrics.closed(status: 4404)
        metrics.closed(status: 4000)
        metrics.closed(status: 4999)
        metrics.received(type: "add")
        metrics.received(type: nil)
        metrics.refused(.rateLimited)
        metrics.handshakeRefused(status: 429)
        metrics.wrote(.binary, bytes: 100, frame: true)
        metrics.wrote(.binary, bytes: 20, frame: false)
        let text = exposition(factory)
        for line in [
            #"forcelayout_closes_total{code="1006"} 1"#, #"forcelayout_closes_total{code="1000"} 1"#,
            #"forcelayout_closes_total{code="4404"} 1"#, #"forcelayout_closes_total{code="other"} 2"#,
            #"forcelayout_messages_received_total{type="add"} 1"#, #"forcelayout_messages_received_total{type="invalid"} 1"#,
            #"forcelayout_messages_refused_total{code="rate_limited"} 1"#,
            #"forcelayout_handshakes_refused_total{status="429"} 1"#,
            #"forcelayout_sent_bytes_total{form="binary"} 120"#, #"forcelayout_messages_sent_total{form="binary"} 2"#,
            #"forcelayout_frames_sent_total{form="binary"} 1"#, #"forcelayout_frames_sent_total{form="text"} 0"#,
        ] {
            XCTAssertTrue(text.contains(line + "\n"), "\(line) in\n\(text)")
        }
    }

    func testTheBuildIsNamed() {
        XCTAssertTrue(BuildInfo.line.hasPrefix("forcelayout \(BuildInfo.version) (build "), BuildInfo.line)
        let id = try! XCTUnwrap(BuildInfo.buildID, "the linker gives every binary a GNU build ID")
        XCTAssertNotNil(id.wholeMatch(of: try! Regex("[0-9a-f]{16,128}")), id)
        XCTAssertTrue(BuildInfo.build.hasPrefix(String(id.prefix(12)) + " "), BuildInfo.build)
    }
}
