/// Every client's undo list in a room: its last changes, newest last, at most `depth` each,
/// and the ledger of who touched what since (`TouchLedger`). Kept by the server that steps
/// the room, in memory only: a restart or a failover forgets it, as a `restored` room does
/// (`clear`). A client's list goes when it leaves (its id never comes again). Pure.
public struct UndoBook: Equatable, Sendable {
    /// Most steps one client's list holds (`limits.undoDepth`; 0: nothing is undoable).
    public let depth: Int
    /// Most cells and links the lists hold together (`UndoStep.weight`): past it, the oldest
    /// steps of the room go, whoever made them.
    public let maxWeight: Int
    public private(set) var stacks: [String: [UndoStep]] = [:]
    var ledger = TouchLedger()
    private var nextStamp = 1
    private(set) var weight = 0
    /// Clients whose list changed since `takeChanged` (their `undoable` is due).
    private var changed: Set<String> = []
    /// The step the last recorded change made or grew, waiting for its event's seq.
    private var awaitingSeq: (client: String, stamp: Int)?
    /// Each client's last recorded change (a restore is undone only if nobody else changed the
    /// room since: `changed(after:byOtherThan:)`); those older than every step are dropped.
    private var latest: [String: Int] = [:]

    public init(depth: Int, maxWeight: Int) {
        self.depth = depth
        self.maxWeight = maxWeight
    }

    public static func == (lhs: UndoBook, rhs: UndoBook) -> Bool {
        lhs.depth == rhs.depth && lhs.maxWeight == rhs.maxWeight && lhs.stacks == rhs.stacks && lhs.ledger == rhs.ledger
    }

    public var isOn: Bool { depth > 0 }

    public func steps(of client: String) -> [UndoStep] { stacks[client] ?? [] }

    public func top(of client: String) -> UndoStep? { stacks[client]?.last }

    /// Who other than `client` recorded a change after `stamp`, if anyone did.
    func changed(after stamp: Int, byOtherThan client: String) -> String? {
        latest.filter { $0.key != client && $0.value > stamp }.keys.min()
    }

    /// The last touch of `key` (`LayoutState` names who built on a step).
    func touch(of key: UndoKey) -> Touch? { ledger[key] }

    /// A new step on `client`'s list, its touches in the ledger; the oldest goes past `depth`.
    mutating func record(_ inverse: UndoStep.Inverse, by client: String, at: Int, what: String, verb: String,
                         keys: [UndoKey]) {
        guard isOn else { return }
        let stamp = nextStamp
        nextStamp += 1
        latest[client] = stamp
        if latest.count > 64, let oldest = oldestStamp() {
            latest = latest.filter { $0.value >= oldest }
        }
        let previous = ledger.touch(keys, with: Touch(stamp: stamp, client: client, verb: verb))
        let step = UndoStep(inverse: inverse, stamp: stamp, at: at, what: what, verb: verb, keys: keys, previous: previous)
        stacks[client, default: []].append(step)
        weight += step.weight
        awaitingSeq = (client, stamp)
        changed.insert(client)
        if stacks[client]!.count > depth { dropOldest(of: client) }
        while weight > maxWeight, let oldest = oldestClient() { dropOldest(of: oldest) }
        ledger.prune(olderThan: oldestStamp())
    }

    /// The change just applied continues `client`'s last step (another move of one drag, of
    /// one slider): the step keeps what it undoes to and takes the new event's seq and time.
    mutating func extendTop(of client: String, at: Int) {
        guard var step = stacks[client]?.last else { return }
        step.at = at
        stacks[client]![stacks[client]!.count - 1] = step
        awaitingSeq = (client, step.stamp)
    }

    /// The event of the change last recorded was published as `seq`.
    public mutating func published(seq: UInt64) {
        guard let (client, stamp) = awaitingSeq else { return }
        awaitingSeq = nil
        guard let index = stacks[client]?.lastIndex(where: { $0.stamp == stamp }) else { return }
        stacks[client]![index].seq = seq
    }

    /// Takes `client`'s last step off its list. `undone`: its changes were undone, so the
    /// ledger's keys it touched get back what they held before it; else (refused) they keep
    /// its touches.
    @discardableResult
    mutating func pop(_ client: String, undone: Bool) -> UndoStep? {
        guard let step = stacks[client]?.popLast() else { return nil }
        if stacks[client]!.isEmpty { stacks[client] = nil }
        weight -= step.weight
        changed.insert(client)
        if undone { ledger.revert(step.keys, to: step.previous, stamp: step.stamp) }
        ledger.prune(olderThan: oldestStamp())
        return step
    }

    /// `client` left: its list goes.
    public mutating func forget(_ client: String) {
        guard let steps = stacks.removeValue(forKey: client) else { return }
        weight -= steps.reduce(0) { $0 + $1.weight }
        changed.remove(client)
        ledger.prune(olderThan: oldestStamp())
    }

    /// Every list goes (the room was restored to another time); returns the clients that had one.
    @discardableResult
    public mutating func clear() -> [String] {
        let clients = stacks.keys.sorted()
        stacks = [:]
        weight = 0
        ledger.removeAll()
        latest = [:]
        awaitingSeq = nil
        changed.formUnion(clients)
        return clients
    }

    /// The clients whose list changed since the last call, each with its count and the next
    /// step's name (nil when none is left).
    public mutating func takeChanged() -> [(client: String, count: Int, next: String?)] {
        guard !changed.isEmpty else { return [] }
        defer { changed = [] }
        return changed.sorted().map { ($0, stacks[$0]?.count ?? 0, stacks[$0]?.last?.what) }
    }

    private mutating func dropOldest(of client: String) {
        guard let step = stacks[client]?.first else { return }
        stacks[client]!.removeFirst()
        if stacks[client]!.isEmpty { stacks[client] = nil }
        weight -= step.weight
        changed.insert(client)
    }

    /// The client whose oldest step is the room's oldest.
    private func oldestClient() -> String? {
        stacks.min { $0.value[0].stamp < $1.value[0].stamp }?.key
    }

    private func oldestStamp() -> Int? {
        stacks.values.lazy.map { $0[0].stamp }.min()
    }
}
