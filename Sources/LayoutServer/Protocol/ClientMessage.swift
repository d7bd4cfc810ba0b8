import ForceLayout

/// Which events a connection wants.
public enum EventSelection: Equatable, Sendable {
    case all
    case only(Set<EventKind>)
}

/// A change to the parameters: the fields a client sent, validated.
public struct ParameterChange: Equatable, Sendable {
    public var stiffness: Double?
    public var charge: Double?
    public var cellSize: Double?
    public var threshold: Double?
    public var tickRate: Double?
    public var theta: Double?
    public var collide: Bool?
    public var paused: Bool?

    public init() {}

    /// `parameters` with this change applied, and the names of the values that differ.
    public func applied(to parameters: Parameters) -> (Parameters, changed: [String]) {
        var result = parameters
        var changed: [String] = []
        func set<T: Equatable>(_ path: WritableKeyPath<Parameters, T>, _ value: T?, _ name: String) {
            guard let value, result[keyPath: path] != value else { return }
            result[keyPath: path] = value
            changed.append(name)
        }
        set(\.stiffness, stiffness, "stiffness")
        set(\.charge, charge, "charge")
        set(\.cellSize, cellSize, "cellSize")
        set(\.threshold, threshold, "threshold")
        set(\.tickRate, tickRate, "tickRate")
        set(\.theta, theta, "theta")
        set(\.collide, collide, "collide")
        set(\.paused, paused, "paused")
        return (result, changed)
    }
}

/// A command that changes the shared layout; applied by the simulation thread.
public enum LayoutCommand: Equatable, Sendable {
    case add(count: Int, spawn: Spawn)
    case remove(ids: [CellID])
    case removeNewest(count: Int)
    case clear
    case params(ParameterChange)
    case pin(id: CellID, x: Double, y: Double)
    case unpin(id: CellID)
}

/// A validated message from a client.
public enum ClientMessage: Equatable, Sendable {
    case layout(LayoutCommand)
    case subscribe(EventSelection)
    case replay(count: Int, kinds: EventSelection)
}

/// A message with the `ref` it carried, if any.
public struct ClientRequest: Equatable, Sendable {
    public var message: ClientMessage
    public var ref: String?
}
