import Foundation
import ForceLayout

/// The `--state` file: cells, parameters and the next id, as JSON. Written atomically
/// (temporary file, fsync, rename) so a crash leaves either the old or the new file.
public enum StateFile {
    public static let format = "forcelayout-state"
    public static let version = 1

    struct Document: Codable {
        var format: String
        var version: Int
        var layout: LayoutSnapshot
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The saved layout, or nil when there is no file yet. A file that exists but is not a
    /// valid state file is an error, and is left untouched.
    public static func load(from path: String) throws(Failure) -> LayoutSnapshot? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read state file \(path)")
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw Failure(description: "state file \(path) is not a forcelayout state file (\(brief(error))); move it away or pass another --state")
        }
        guard document.format == format else {
            throw Failure(description: "state file \(path) has format \"\(document.format)\", expected \"\(format)\"")
        }
        guard document.version == version else {
            throw Failure(description: "state file \(path) has version \(document.version); this server reads version \(version)")
        }
        if let problem = validate(document.layout.parameters) {
            throw Failure(description: "state file \(path): \(problem)")
        }
        do {
            _ = try Simulation(snapshot: document.layout)
        } catch {
            throw Failure(description: "state file \(path) holds an invalid layout: \(error)")
        }
        return document.layout
    }

    public static func save(_ snapshot: LayoutSnapshot, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(Document(format: format, version: version, layout: snapshot))
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = "\(directory)/.\(url.lastPathComponent).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var failed = false
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { failed = true; return }
                offset += written
            }
        }
        if fsync(descriptor) != 0 { failed = true }
        close(descriptor)
        guard !failed, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw Failure(description: "cannot write state file \(path): \(String(cString: strerror(errno)))")
        }
        // Make the rename itself durable.
        let directoryDescriptor = open(directory, O_RDONLY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    static func validate(_ parameters: Parameters) -> String? {
        let values: [(ParameterRanges.Range, Double)] = [
            (ParameterRanges.stiffness, parameters.stiffness), (ParameterRanges.charge, parameters.charge),
            (ParameterRanges.cellSize, parameters.cellSize), (ParameterRanges.threshold, parameters.threshold),
            (ParameterRanges.tickRate, parameters.tickRate), (ParameterRanges.theta, parameters.theta),
        ]
        for (range, value) in values where !range.contains(value) {
            return "\(range.name) \(value) is outside \(range.text)"
        }
        return nil
    }

    private static func brief(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return "corrupt data: \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, _): return "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "\(error)"
        }
    }
}
