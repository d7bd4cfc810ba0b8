/// What exports may hold at once: at most `maxPerAddress` exports under way per address (from
/// the request until its body is written or its connection closes; one more is answered 429),
/// and `maxBytes` of documents held for connections still writing them (a document shared by
/// several connections counts once; past the budget a new export is answered 503, so a crowd
/// of clients that never read cannot pile up documents). Pure: the service thread reports each
/// step, and every transition is tested without sockets.
package struct ExportBudget {
    package struct Policy: Equatable {
        var maxPerAddress: Int
        var maxBytes: Int

        package init(maxPerAddress: Int, maxBytes: Int) {
            self.maxPerAddress = maxPerAddress
            self.maxBytes = maxBytes
        }
    }

    package enum Admission: Equatable {
        case admit
        /// This address has `maxPerAddress` exports under way (429).
        case tooMany(Int)
        /// Documents held reached `maxBytes` (503).
        case full(Int)
    }

    let policy: Policy
    private var underWay: [PeerAddress: Int] = [:]
    /// Each document held: its size and the connections holding it.
    private var held: [ObjectIdentifier: (bytes: Int, holders: Int)] = [:]
    package private(set) var heldBytes = 0
    /// Bytes the documents of exports admitted but still waiting are expected to take.
    private(set) var expectedBytes = 0

    package init(policy: Policy) { self.policy = policy }

    func underWay(from address: PeerAddress) -> Int { underWay[address] ?? 0 }

    var documentsHeld: Int { held.count }

    package func holds(_ document: ObjectIdentifier) -> Bool { held[document] != nil }

    /// An export asked for from `address`: counted under way when admitted. `sharing`: it will
    /// be answered with a document held already (no new bytes), so the byte budget does not
    /// refuse it. `expecting`: the bytes its document is expected to take (the size of the
    /// room's last one), counted against the budget until it arrives (`arrived`), so exports
    /// asked for together cannot overshoot it by many documents.
    package mutating func admit(from address: PeerAddress, sharing: Bool = false, expecting: Int = 0) -> Admission {
        guard underWay(from: address) < policy.maxPerAddress else { return .tooMany(policy.maxPerAddress) }
        guard sharing || heldBytes + expectedBytes < policy.maxBytes else { return .full(policy.maxBytes) }
        underWay[address, default: 0] += 1
        expectedBytes += expecting
        return .admit
    }

    /// The document an admitted export was `expecting` arrived (or never will).
    package mutating func arrived(expecting: Int) {
        expectedBytes = max(0, expectedBytes - expecting)
    }

    /// An admitted export ended (its body written, refused late, or its connection closed).
    package mutating func ended(from address: PeerAddress) {
        guard let count = underWay[address] else { return }
        underWay[address] = count > 1 ? count - 1 : nil
    }

    /// A connection holds `document` (of `bytes`) until it has written it.
    package mutating func hold(_ document: ObjectIdentifier, bytes: Int) {
        if let entry = held[document] {
            held[document] = (entry.bytes, entry.holders + 1)
        } else {
            held[document] = (bytes, 1)
            heldBytes += bytes
        }
    }

    /// A connection let go of `document`: written, or closed.
    package mutating func release(_ document: ObjectIdentifier) {
        guard let entry = held[document] else { return }
        if entry.holders > 1 {
            held[document] = (entry.bytes, entry.holders - 1)
        } else {
            held[document] = nil
            heldBytes -= entry.bytes
        }
    }
}
