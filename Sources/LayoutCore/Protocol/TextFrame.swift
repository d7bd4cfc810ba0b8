import Synchronization

/// A frame's v1 (JSON text) forms. A room writes them with the frame while a v1 client is in
/// it (in a cluster, on any server); otherwise it keeps the positions and writes them only if
/// a v1 client asks for this frame (a joiner): a room read only by v2 clients spends nothing on
/// text, and a v1 joiner still gets the same bytes at once. A relay's frame has them only if
/// the owner sent them (`absent`): its v1 joiner waits for the owner's next frame, which has.
package final class TextFrame: Sendable {
    private enum Forms {
        case written(FrameEncoder.Frame)
        /// Not written yet; its size once it was counted.
        case deferred(FrameEncoder.Source, bareCount: Int?)
        /// Not here (a relay's frame that the owner sent without text).
        case absent
    }

    private let forms: Mutex<Forms>

    package init(_ frame: FrameEncoder.Frame) {
        forms = Mutex(.written(frame))
    }

    package init(deferring source: FrameEncoder.Source) {
        forms = Mutex(.deferred(source, bareCount: nil))
    }

    /// A frame without its text forms (a relay's, which the owner sent without them).
    package static let absent = TextFrame(forms: .absent)

    private init(forms: Forms) {
        self.forms = Mutex(forms)
    }

    /// Whether the forms were written (with the frame, or since, at a v1 client's demand).
    package var isWritten: Bool {
        forms.withLock { forms in
            if case .written = forms { return true }
            return false
        }
    }

    /// Bytes of the form without ids (`frameBytes` in the status); if it was not written,
    /// counted (once, at the first ask) without writing it; nil when absent.
    package var bareCount: Int? {
        forms.withLock { forms in
            switch forms {
            case .absent:
                return nil
            case .written(let frame):
                return frame.withoutIDs.count
            case .deferred(_, let counted?):
                return counted
            case .deferred(let source, nil):
                let count = source.bareCount
                forms = .deferred(source, bareCount: count)
                return count
            }
        }
    }

    /// The forms; written now, by the thread that first asks, if they were deferred; nil when
    /// absent.
    var frame: FrameEncoder.Frame? {
        forms.withLock { forms in
            switch forms {
            case .absent:
                return nil
            case .written(let frame):
                return frame
            case .deferred(let source, _):
                let frame = source.frame
                forms = .written(frame)
                return frame
            }
        }
    }
}
