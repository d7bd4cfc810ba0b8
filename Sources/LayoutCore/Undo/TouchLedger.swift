/// The last change of each key (`UndoKey`) that some undo step may still look at. A step
/// remembers what the keys it touched held before (`touch` returns it); undoing it puts that
/// back where the step's own touch is still the last, so undoing a change leaves the ledger as
/// if it had not been made. Pure.
///
/// Pruning: a key last touched before the oldest step any stack still holds cannot be told
/// apart from an untouched one by any step (each live step touched its keys after it), so such
/// touches go once the ledger has grown (`prune`).
struct TouchLedger: Equatable, Sendable {
    private(set) var touches: [UndoKey: Touch] = [:]
    /// The size after the last prune: the next one waits for the ledger to double.
    private var prunedAt = 0

    subscript(key: UndoKey) -> Touch? { touches[key] }

    /// Records `touch` on `keys`; returns what each held before (in the order of `keys`).
    mutating func touch(_ keys: [UndoKey], with touch: Touch) -> [Touch?] {
        keys.map { touches.updateValue(touch, forKey: $0) }
    }

    /// Undoing the change numbered `stamp`: each key whose last touch is still that change
    /// gets back what it held before it.
    mutating func revert(_ keys: [UndoKey], to previous: [Touch?], stamp: Int) {
        for (key, before) in zip(keys, previous) where touches[key]?.stamp == stamp {
            touches[key] = before
        }
    }

    /// Drops touches older than `oldest` (the oldest live step's number; nil: no step is
    /// left, all go) once the ledger is twice its size after the last prune.
    mutating func prune(olderThan oldest: Int?) {
        guard touches.count >= max(1024, prunedAt * 2) else { return }
        if let oldest {
            touches = touches.filter { $0.value.stamp >= oldest }
        } else {
            touches = [:]
        }
        prunedAt = touches.count
    }

    mutating func removeAll() {
        touches = [:]
        prunedAt = 0
    }
}
