import Foundation
import LayoutCore
import Logging

/// `--log-format json`: each log line one JSON object on a line of its own, for tools that read
/// logs (jq, Loki, a log shipper): `time` (ISO 8601, UTC, ms), `level`, `label`,
/// `message`, and the line's metadata, if any, as `metadata` (each value as its text). The
/// keys stay these (README, `--log-format`). A line goes out in one `write`, so lines from threads
/// never interleave.
package struct JSONLogHandler: LogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    private let label: String
    private let write: @Sendable ([UInt8]) -> Void

    /// `write`: where each line goes (standard error by default).
    package init(label: String, write: @escaping @Sendable ([UInt8]) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.write = write
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        write(Self.line(time: Date(), level: event.level, label: label, message: event.message.description,
                        metadata: merged.map { ($0.key, $0.value.description) }))
    }

    /// The bytes of one line, its newline included.
    package static func line(time: Date, level: Logger.Level, label: String, message: String,
                             metadata: [(String, String)]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 96 + message.utf8.count)
        writer.raw("{\"time\":")
        writer.string(time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        writer.member("level", level.rawValue)
        writer.member("label", label)
        writer.member("message", message)
        if !metadata.isEmpty {
            writer.raw(",\"metadata\":{")
            for (index, (key, value)) in metadata.sorted(by: { $0.0 < $1.0 }).enumerated() {
                if index > 0 { writer.raw(",") }
                writer.string(key)
                writer.raw(":")
                writer.string(value)
            }
            writer.raw("}")
        }
        writer.raw("}\n")
        return writer.bytes
    }

    package static let standardError: @Sendable ([UInt8]) -> Void = { bytes in
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let wrote = Foundation.write(2, buffer.baseAddress! + done, buffer.count - done)
                if wrote <= 0 { return }
                done += wrote
            }
        }
    }
}
