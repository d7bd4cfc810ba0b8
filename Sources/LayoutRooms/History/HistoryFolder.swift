import Dispatch
import EventBus
import ForceLayout
import Foundation
import LayoutCore
import Logging
import Synchronization

/// A room's history on disk: `NAME.history/` beside its state file, one file per segment
/// (`0000000001.flhistory`, …; docs/history-format.md), appended to and never rewritten. Writes
/// go out in order on a queue of the folder's own, each as soon as it is made: a kill -9 loses
/// at most what was still queued (well under a second), and a record cut short by it is
/// dropped when the folder is read again (`load`), which cuts the file there.
package final class HistoryFolder: HistorySink {
    package let path: String
    private let queue: DispatchQueue
    private let logger: Logger
    /// Touched on `queue` only (a Mutex, so the class is Sendable without a promise).
    private let files = Mutex(Files())

    private struct Files {
        /// Segment numbers on disk, oldest first.
        var segments: [Int] = []
        /// The open file of the newest segment, and the ids its last keyframe or checkpoint had.
        var current: Int32 = -1
        var ids: [CellID] = []
        /// The last write failed (logged once until one succeeds).
        var failing = false
    }

    init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
        queue = DispatchQueue(label: "forcelayout.history-file", qos: .utility)
    }

    static let suffix = ".flhistory"

    /// The history on disk as a log within `bounds` (on the caller's thread: the room's file
    /// reader), cutting a file where a record was cut short and deleting the files the bounds
    /// drop; nil when there is none.
    package func load(bounds: HistoryBounds) -> HistoryLog? {
        let numbers = Self.segmentNumbers(in: path)
        guard !numbers.isEmpty else { return nil }
        var log = HistoryLog(bounds: bounds)
        var kept: [Int] = []
        for number in numbers {
            let file = Self.file(path, number)
            guard let bytes = FileManager.default.contents(atPath: file).map(Array.init),
                  let (records, whole) = HistoryFileFormat.read(bytes),
                  case .checkpoint(let first)? = records.first else {
                logger.warning("history file \(file) is not readable: removed")
                unlink(file)
                continue
            }
            if whole < bytes.count {
                logger.warning("history file \(file): the last \(bytes.count - whole) bytes were cut short (the server stopped while writing them): cut there")
                truncate(file, off_t(whole))
            }
            let before = log.segmentCount
            log.start(first)
            for record in records.dropFirst() {
                switch record {
                case .event(let envelope): log.append(envelope)
                case .keyframe(let frame): log.append(frame)
                case .checkpoint: break  // one a segment, first
                }
            }
            // The bounds dropped older segments as this one started.
            let dropped = before + 1 - log.segmentCount
            for old in kept.prefix(dropped) { unlink(Self.file(path, old)) }
            kept.removeFirst(min(dropped, kept.count))
            kept.append(number)
        }
        files.withLock { $0.segments = kept }
        return log.isEmpty ? nil : log
    }

    /// A new segment from `checkpoint` (a file of its own), after dropping the `dropped` oldest.
    package func start(_ checkpoint: Checkpoint, dropped: Int) {
        queue.async { [self] in
            files.withLock { files in
                for old in files.segments.prefix(dropped) { unlink(Self.file(path, old)) }
                files.segments.removeFirst(min(dropped, files.segments.count))
                if files.current >= 0 { close(files.current) }
                let number = (files.segments.last ?? 0) + 1
                try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                files.current = open(Self.file(path, number), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
                files.segments.append(number)
                files.ids = checkpoint.state.layout.cells.map(\.id)
                write(HistoryFileFormat.header + HistoryFileFormat.checkpoint(checkpoint), to: &files)
            }
        }
    }

    package func append(_ envelope: Envelope<LayoutEvent>) {
        queue.async { [self] in
            files.withLock { write(HistoryFileFormat.event(envelope), to: &$0) }
        }
    }

    package func append(_ keyframe: Keyframe) {
        queue.async { [self] in
            files.withLock { files in
                let withIDs = keyframe.ids != files.ids
                if withIDs { files.ids = keyframe.ids }
                write(HistoryFileFormat.keyframe(keyframe, withIDs: withIDs), to: &files)
            }
        }
    }

    /// Deletes the folder (the room was forgotten or deleted), after the writes queued.
    package func remove() {
        queue.async { [self] in
            files.withLock { files in
                if files.current >= 0 { close(files.current) }
                files = Files()
            }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Waits for the writes queued (a server stopping).
    package func flush() {
        queue.sync {}
    }

    private func write(_ bytes: [UInt8], to files: inout Files) {
        guard files.current >= 0 else { return fail("\(path): no segment file open", &files) }
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(files.current, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        if written {
            if files.failing { logger.info("history \(path): written again") }
            files.failing = false
        } else {
            fail("\(path): \(String(cString: strerror(errno)))", &files)
        }
    }

    private func fail(_ why: String, _ files: inout Files) {
        guard !files.failing else { return }
        files.failing = true
        logger.error("writing history failed: \(why) (the history in memory goes on; what is not written is lost at a restart)")
    }

    static func file(_ folder: String, _ number: Int) -> String {
        let digits = String(number)
        return "\(folder)/\(String(repeating: "0", count: max(0, 10 - digits.count)))\(digits)\(suffix)"
    }

    static func segmentNumbers(in folder: String) -> [Int] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.compactMap { entry -> Int? in
            guard entry.hasSuffix(suffix), entry.count == 10 + suffix.count else { return nil }
            return Int(entry.dropLast(suffix.count))
        }.sorted()
    }
}
