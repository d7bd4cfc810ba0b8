import LayoutCore

/// A recording read from a `.flhistory` file (`GET /export/NAME.flhistory`,
/// docs/history-format.md): its whole records, from the checkpoint it starts with. A file whose
/// tail is not whole (cut while it was written, or damaged there) keeps what comes before;
/// `cutBytes` says how much was left. Pure.
public struct Recording: Sendable {
    let records: [HistoryFileFormat.Record]
    /// Bytes at its end that are not whole records (0: none).
    public let cutBytes: Int

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Whether `bytes` are a recording (they start as one does), rather than a graph file.
    public static func isRecording(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: HistoryFileFormat.header)
    }

    public init(_ bytes: [UInt8]) throws(Failure) {
        guard let (records, whole) = HistoryFileFormat.read(bytes) else {
            throw Failure(description: "not a forcelayout recording: a .flhistory file starts with \"FLHIST1\"")
        }
        guard case .checkpoint? = records.first else {
            if records.isEmpty {
                throw Failure(description: whole < bytes.count
                              ? "a damaged recording: its first record is not whole (\(bytes.count - whole) bytes after the header)"
                              : "an empty recording: a header and no record")
            }
            throw Failure(description: "a damaged recording: it does not start with a checkpoint of the room")
        }
        self.records = records
        cutBytes = bytes.count - whole
    }

    /// Events and keyframes it holds (checkpoints aside).
    public var counts: (events: Int, keyframes: Int) {
        var events = 0, keyframes = 0
        for record in records {
            switch record {
            case .event: events += 1
            case .keyframe: keyframes += 1
            case .checkpoint: break
            }
        }
        return (events, keyframes)
    }
}
