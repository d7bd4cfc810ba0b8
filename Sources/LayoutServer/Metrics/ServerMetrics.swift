import CoreMetrics
import LayoutCore

/// What the service thread counts (`MetricCatalogue` says what each is), through swift-metrics
/// handles made once from `factory`. A labelled counter is made at its label's first use; every
/// label comes from a closed set (message types, error codes, close statuses the server knows,
/// HTTP statuses), so no client can make the exposition grow.
///
/// Service thread only (the handles themselves may be used anywhere).
final class ServerMetrics {
    private let factory: any MetricsFactory
    private var labelled: [MetricCatalogue: [String: Counter]] = [:]
    /// What went out, by form: counted at every write, so made once, not looked up.
    private let sentText: Sent
    private let sentBinary: Sent
    let framesSkipped: Counter
    let connectionsRefused: Counter

    /// The form of a WebSocket message sent.
    enum Form: String {
        case text, binary
    }

    /// The counters of one form's messages, frames and bytes.
    private struct Sent {
        let messages: Counter, frames: Counter, bytes: Counter

        init(_ form: Form, factory: any MetricsFactory) {
            let dimensions = [("form", form.rawValue)]
            messages = Counter(label: MetricCatalogue.messagesSent.rawValue, dimensions: dimensions, factory: factory)
            frames = Counter(label: MetricCatalogue.framesSent.rawValue, dimensions: dimensions, factory: factory)
            bytes = Counter(label: MetricCatalogue.sentBytes.rawValue, dimensions: dimensions, factory: factory)
        }
    }

    init(factory: any MetricsFactory) {
        self.factory = factory
        sentText = Sent(.text, factory: factory)
        sentBinary = Sent(.binary, factory: factory)
        framesSkipped = Counter(label: MetricCatalogue.framesSkipped.rawValue, factory: factory)
        connectionsRefused = Counter(label: MetricCatalogue.connectionsRefused.rawValue, factory: factory)
        // At zero from the start, so that rates and alerts have a series before the first.
        for code in ProtocolError.Code.allCases { made(.messagesRefused, "code", code.rawValue) }
        for status in Self.handshakeStatuses { made(.handshakesRefused, "status", String(status)) }
        made(.messagesReceived, "type", "invalid")
    }

    /// What a handshake may be refused with (docs/protocol.md, "Connecting").
    static let handshakeStatuses: [UInt32] = [400, 403, 404, 429, 503]

    /// A gauge of the catalogue, with `dimensions`.
    func gauge(_ metric: MetricCatalogue, _ dimensions: [(String, String)] = []) -> Gauge {
        Gauge(label: metric.rawValue, dimensions: dimensions, factory: factory)
    }

    /// A message from a client, of wire type `type` (nil: it could not be read as one).
    func received(type: String?) {
        count(.messagesReceived, "type", type ?? "invalid")
    }

    func refused(_ code: ProtocolError.Code) {
        count(.messagesRefused, "code", code.rawValue)
    }

    func handshakeRefused(status: UInt32) {
        count(.handshakesRefused, "status", String(status))
    }

    /// A WebSocket closed with `status` (nil: no close frame, 1006 as the RFC names it). A
    /// status that is neither RFC 6455's nor one of the server's own (docs/protocol.md,
    /// "Closing") is counted as `other`: a client may close with any of 3000 to 4999.
    func closed(status: UInt16?) {
        let code = status ?? 1006
        let known = (1000...1015).contains(code) || AccessClose.all.contains(UInt32(code))
        count(.closes, "code", known ? String(code) : "other")
    }

    func wrote(_ form: Form, bytes: Int, frame: Bool) {
        let counters = form == .binary ? sentBinary : sentText
        counters.messages.increment()
        counters.bytes.increment(by: bytes)
        if frame { counters.frames.increment() }
    }

    private func count(_ metric: MetricCatalogue, _ key: String, _ value: String) {
        made(metric, key, value).increment()
    }

    /// The counter of `metric` labelled `key`=`value`, made at its first use.
    @discardableResult
    private func made(_ metric: MetricCatalogue, _ key: String, _ value: String) -> Counter {
        if let counter = labelled[metric]?[value] { return counter }
        let counter = Counter(label: metric.rawValue, dimensions: [(key, value)], factory: factory)
        labelled[metric, default: [:]][value] = counter
        return counter
    }
}
