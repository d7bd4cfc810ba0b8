/// An event that can travel on an `EventBus`: it names its kind so subscribers can filter.
public protocol BusEvent: Sendable {
    associatedtype Kind: Hashable & Sendable
    var kind: Kind { get }
    /// What keeping it for replay costs, in bytes (its encoded size, say): the replay buffer
    /// keeps at most `ReplayBounds.bytes` of them.
    var replayBytes: Int { get }
}

/// The highest sequence number a bus stamps or mirrors: 2^53, the largest integer a browser's
/// number holds exactly (at a million events a second, 285 years of them). An envelope above it
/// comes from no bus: a relay refuses it rather than numbering on from it (one at 2^64 − 1 has
/// no next number at all).
public enum EventBusBounds {
    public static let maxSeq: UInt64 = 1 << 53
}

/// An event as published: stamped with the bus's strictly increasing sequence number.
public struct Envelope<Event: BusEvent>: Sendable {
    public let seq: UInt64
    public let event: Event

    public init(seq: UInt64, event: Event) {
        self.seq = seq
        self.event = event
    }
}

/// Which kinds a subscriber or a replay wants: all of them, or a set.
public enum KindFilter<Kind: Hashable & Sendable>: Sendable, Equatable {
    case all
    case only(Set<Kind>)

    public func admits(_ kind: Kind) -> Bool {
        switch self {
        case .all: return true
        case .only(let kinds): return kinds.contains(kind)
        }
    }
}
