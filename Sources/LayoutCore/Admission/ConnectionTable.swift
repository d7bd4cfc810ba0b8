/// Every TCP connection the server holds, from accept to close, and what to do about the
/// next one. Pure: the caller (the service thread) turns each returned action into
/// libwebsockets calls, so every transition is tested without sockets.
///
/// - A connection is *waiting* until it becomes a WebSocket: it has a deadline (`timeout`
///   seconds after it opened or after its last complete request), and it may be evicted.
/// - Admission caps the connections that are not closing (`maxConnections`) and those of
///   one peer address (`maxPerAddress`). At a cap, the oldest waiting connection under that
///   cap makes room for the new one (a flood of idle connections cannot lock a fresh client
///   out); when every connection under the cap is a WebSocket, the new one is refused.
/// - Evicted and expired connections keep counting against `maxDescriptors` until they are
///   closed for real, so the process never runs out of file descriptors: past that, new
///   connections are refused.
package struct ConnectionTable {
    package typealias ID = Int

    package struct Policy: Equatable {
        var maxConnections: Int
        var maxPerAddress: Int
        /// Connections the process may hold open, closing ones included (descriptors).
        var maxDescriptors: Int
        /// Seconds a connection may stay without completing a request before it is a WebSocket.
        var timeout: Double

        package init(maxConnections: Int, maxPerAddress: Int, maxDescriptors: Int, timeout: Double) {
            self.maxConnections = maxConnections
            self.maxPerAddress = maxPerAddress
            self.maxDescriptors = maxDescriptors
            self.timeout = timeout
        }
    }

    package enum Refusal: Equatable {
        /// The process holds `maxDescriptors` connections, some of them still closing.
        case descriptors(Int)
        /// `maxConnections` are open and all are WebSockets.
        case connections(Int)
        /// `maxPerAddress` are open from this address and all are WebSockets.
        case address(Int)
    }

    package enum AcceptAction: Equatable {
        case admit(ID)
        /// Admit, and close `evicted` (a waiting connection) to make room.
        case admitEvicting(ID, evicted: ID)
        case refuse(Refusal)
    }

    private struct Entry {
        let address: PeerAddress
        var deadline: Double?
        var closing = false
        var isWaiting: Bool { deadline != nil && !closing }
    }

    let policy: Policy
    private var entries: [ID: Entry] = [:]
    private var openByAddress: [PeerAddress: Int] = [:]
    /// Waiting connections, oldest first (ids ascend with age); stale ids are skipped lazily.
    private var waiting = IDQueue()
    private var waitingByAddress: [PeerAddress: IDQueue] = [:]
    private var nextID: ID = 1
    /// Connections that are not closing.
    package private(set) var openCount = 0

    package init(policy: Policy) { self.policy = policy }

    /// Connections held, closing ones included (each holds a file descriptor).
    var heldCount: Int { entries.count }

    var webSocketCount: Int { entries.values.reduce(0) { $0 + ($1.deadline == nil && !$1.closing ? 1 : 0) } }

    /// Ids in the eviction queue, stale ones included (bounded by the open connections).
    var waitingQueueLength: Int { waiting.count }

    func openCount(from address: PeerAddress) -> Int { openByAddress[address] ?? 0 }

    func isOpen(_ id: ID) -> Bool { entries[id].map { !$0.closing } ?? false }

    /// A connection was accepted from `address`: admit it (making room if a cap is reached)
    /// or refuse it. A refused connection is not in the table.
    package mutating func accept(from address: PeerAddress, now: Double) -> AcceptAction {
        guard entries.count < policy.maxDescriptors else { return .refuse(.descriptors(policy.maxDescriptors)) }
        var evicted: ID?
        if openCount(from: address) >= policy.maxPerAddress {
            guard let victim = oldestWaiting(from: address) else { return .refuse(.address(policy.maxPerAddress)) }
            evicted = victim
        } else if openCount >= policy.maxConnections {
            guard let victim = oldestWaiting() else { return .refuse(.connections(policy.maxConnections)) }
            evicted = victim
        }
        if let evicted { markClosing(evicted) }
        let id = nextID
        nextID += 1
        entries[id] = Entry(address: address, deadline: now + policy.timeout)
        openByAddress[address, default: 0] += 1
        openCount += 1
        let entries = self.entries
        waiting.push(id, liveCount: openCount) { entries[$0]?.isWaiting == true }
        waitingByAddress[address, default: IDQueue()].push(id, liveCount: openCount(from: address)) {
            entries[$0]?.isWaiting == true
        }
        return evicted.map { .admitEvicting(id, evicted: $0) } ?? .admit(id)
    }

    /// A complete request arrived: its response and the idle time after it get a fresh deadline.
    package mutating func requestArrived(_ id: ID, now: Double) {
        guard entries[id]?.isWaiting == true else { return }
        entries[id]!.deadline = now + policy.timeout
    }

    /// The connection is a WebSocket now: no deadline, never evicted.
    package mutating func upgraded(_ id: ID) {
        guard entries[id]?.closing == false else { return }
        entries[id]!.deadline = nil
    }

    /// The connection is gone (its descriptor closed).
    package mutating func closed(_ id: ID) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        if !entry.closing { release(entry.address) }
    }

    /// Waiting connections past their deadline, now marked closing: close each.
    package mutating func expire(now: Double) -> [ID] {
        let due = entries.compactMap { id, entry in entry.isWaiting && entry.deadline! <= now ? id : nil }.sorted()
        for id in due { markClosing(id) }
        return due
    }

    /// The server is closing this connection on its own (a refusal answered, a shutdown).
    package mutating func closing(_ id: ID) {
        guard entries[id]?.closing == false else { return }
        markClosing(id)
    }

    private mutating func markClosing(_ id: ID) {
        entries[id]!.closing = true
        release(entries[id]!.address)
    }

    private mutating func release(_ address: PeerAddress) {
        openCount -= 1
        let left = openByAddress[address, default: 1] - 1
        openByAddress[address] = left > 0 ? left : nil
        if left == 0 { waitingByAddress[address] = nil }
    }

    private mutating func oldestWaiting() -> ID? {
        let entries = self.entries
        return waiting.popFirst { entries[$0]?.isWaiting == true }
    }

    private mutating func oldestWaiting(from address: PeerAddress) -> ID? {
        let entries = self.entries
        return waitingByAddress[address]?.popFirst { entries[$0]?.isWaiting == true }
    }
}

/// Ids in the order they were pushed; stale ones are dropped when they reach the front, or
/// all at once when they outnumber the live ones, so the queue stays proportional to them.
struct IDQueue {
    private var ids: [Int] = []
    private var head = 0

    var count: Int { ids.count - head }

    /// Appends `id`; `liveCount` bounds how many queued ids can still be live.
    mutating func push(_ id: Int, liveCount: Int, isLive: (Int) -> Bool) {
        if count > 2 * liveCount + 64 {
            ids = ids[head...].filter(isLive)
            head = 0
        } else if head > 64, head * 2 > ids.count {
            ids.removeFirst(head)
            head = 0
        }
        ids.append(id)
    }

    /// Removes and returns the first id that `isLive`, dropping the stale ones before it.
    mutating func popFirst(where isLive: (Int) -> Bool) -> Int? {
        while head < ids.count {
            let id = ids[head]
            head += 1
            if isLive(id) { return id }
        }
        return nil
    }
}
