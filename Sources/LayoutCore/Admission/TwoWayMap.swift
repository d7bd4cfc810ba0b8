/// Pairs of two kinds of key, each finding the other (a connection's wsi and its id in the
/// `ConnectionTable`): one insert and one remove keep both ways in step.
package struct TwoWayMap<Left: Hashable, Right: Hashable> {
    package init() {}

    private var rights: [Left: Right] = [:]
    private var lefts: [Right: Left] = [:]

    var count: Int { rights.count }

    package subscript(left: Left) -> Right? { rights[left] }
    package subscript(right right: Right) -> Left? { lefts[right] }

    /// Pairs `left` with `right`, replacing what either was paired with.
    package mutating func insert(_ left: Left, _ right: Right) {
        remove(left)
        if let previous = lefts[right] { remove(previous) }
        rights[left] = right
        lefts[right] = left
    }

    /// Unpairs `left`; returns what it was paired with.
    @discardableResult
    package mutating func remove(_ left: Left) -> Right? {
        guard let right = rights.removeValue(forKey: left) else { return nil }
        lefts[right] = nil
        return right
    }
}
