import EventBus
import ForceLayout

/// A stretch of a room's history: the checkpoint it starts from, then its events and
/// keyframes in order, each with the time it is filed under (never before the one before it,
/// so a wall clock stepped back keeps the order searchable).
struct HistorySegment: Sendable {
    let checkpoint: Checkpoint
    /// `checkpoint.bytes`, counted once (it sums the data of every cell).
    let checkpointBytes: Int
    private(set) var events: [Envelope<LayoutEvent>] = []
    private(set) var eventTimes: [Int] = []
    private(set) var keyframes: [Keyframe] = []
    private(set) var keyframeTimes: [Int] = []
    private(set) var bytes: Int
    /// The latest time filed in it.
    private(set) var lastAt: Int

    init(checkpoint: Checkpoint) {
        self.checkpoint = checkpoint
        checkpointBytes = checkpoint.bytes
        bytes = checkpointBytes
        lastAt = checkpoint.at
    }

    var firstAt: Int { checkpoint.at }

    /// What its events and keyframes take, the checkpoint aside.
    var bytesSinceCheckpoint: Int { bytes - checkpointBytes }

    mutating func append(_ envelope: Envelope<LayoutEvent>) {
        lastAt = max(lastAt, envelope.event.at)
        events.append(envelope)
        eventTimes.append(lastAt)
        bytes += envelope.event.replayBytes
    }

    mutating func append(_ keyframe: Keyframe) {
        lastAt = max(lastAt, keyframe.at)
        keyframes.append(keyframe)
        keyframeTimes.append(lastAt)
        bytes += keyframe.bytes
    }

    /// How many of `times` are at or before `at`.
    static func count(_ times: [Int], atOrBefore at: Int) -> Int {
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= at { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The events filed at or before `at`.
    func events(atOrBefore at: Int) -> ArraySlice<Envelope<LayoutEvent>> {
        events[..<Self.count(eventTimes, atOrBefore: at)]
    }

    /// The keyframe nearest at or before `at`, and up to `later` after it.
    func keyframes(around at: Int, later: Int) -> (before: Keyframe?, after: ArraySlice<Keyframe>) {
        let split = Self.count(keyframeTimes, atOrBefore: at)
        return (split > 0 ? keyframes[split - 1] : nil, keyframes[split..<min(keyframes.count, split + later)])
    }
}
